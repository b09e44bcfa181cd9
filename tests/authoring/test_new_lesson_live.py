"""A scaffolded lesson works end to end, in a copy of the checkout: it builds, passes dev check, and its check
fails on the exercise notebook and on each wrong answer it scaffolds, and passes on the solution notebook, in both languages."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VERDICTS = """
import json, sys, tempfile
from pathlib import Path
import nbformat
from celerylab.grading.engine import run_check
from celerylab.grading.extract import extract_modules
verdicts = {}
for variant in ("exercises", "solutions"):
    for lang in ("pt", "en"):
        folder = Path(tempfile.mkdtemp())
        name = "99_demo" + {"exercises": {"pt": "_exercicios", "en": "_exercises"}[lang], "solutions": ""}[variant]
        extract_modules(nbformat.read(f"{variant}/{lang}/{name}.ipynb", as_version=4), folder)
        verdict = run_check("l99.double", folder, include_hidden=True)
        verdicts[f"{variant}/{lang}"] = [verdict.passed, verdict.error]
from celerylab import wrong_answers
for answer in wrong_answers.in_lesson(Path("src/celerylab/lessons/l99_demo")):
    folder = Path(tempfile.mkdtemp())
    answer.install(folder, "ex_double")
    verdict = run_check("l99.double", folder, include_hidden=True)
    verdicts[f"wrong/{answer.slug}"] = [verdict.passed, verdict.error]
print(json.dumps(verdicts))
"""


@pytest.mark.live
@pytest.mark.slow
def test_new_lesson_builds_checks_and_grades(tmp_path):
    clone = tmp_path / "clone"
    shutil.copytree(ROOT / "src", clone / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", clone)
    env = dict(os.environ, PYTHONPATH=str(clone / "src"), CELERYLAB_HOME=str(tmp_path / "home"), CELERYLAB_LANG="en")

    def run(*argv: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, *argv], cwd=clone, env=env, capture_output=True, text=True,
                              timeout=240)

    steps = [("-m", "celerylab.cli", "dev", "new-lesson", "99", "demo"),
             ("-m", "celerylab.cli", "build", "--lesson", "l99_demo"),
             ("-m", "celerylab.cli", "dev", "check", "--lesson", "l99_demo")]
    for argv in steps:
        done = run(*argv)
        assert done.returncode == 0, (argv, done.stdout, done.stderr)
    assert "The course is consistent (lessons: 1; exercises: 1;" in done.stdout
    assert "- l99_demo" in (clone / "src" / "celerylab" / "course.yml").read_text()
    done = run("-c", VERDICTS)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {
        "exercises/pt": [False, None], "exercises/en": [False, None],
        "solutions/pt": [True, None], "solutions/en": [True, None],
        "wrong/drops_the_sign": [False, None], "wrong/hard_coded": [False, None]}
