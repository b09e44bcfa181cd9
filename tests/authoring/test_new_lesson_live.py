"""A scaffolded lesson works end to end, in a copy of the checkout: it builds, passes dev check, and its check
fails on the exercise notebook and on each wrong answer it scaffolds, and passes on the solution notebook, in both languages;
its claim test runs on its shared stack fixture and records what it observed, its claim and audit links point at its
section, and nothing outside its folder changed but course.yml."""
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
from celerylab.checks.check_run import run_check
from celerylab.checks.extract import extract_modules
from celerylab.course import Course
exercise = Course.at().find_exercise("l99.double")
verdicts = {}
for variant in ("exercises", "solutions"):
    for lang in ("pt", "en"):
        folder = Path(tempfile.mkdtemp())
        name = "99_demo" + {"exercises": {"pt": "_exercicios", "en": "_exercises"}[lang], "solutions": ""}[variant]
        extract_modules(nbformat.read(f"{variant}/{lang}/{name}.ipynb", as_version=4), folder)
        verdict = run_check(exercise, folder, include_hidden=True)
        verdicts[f"{variant}/{lang}"] = [verdict.passed, verdict.error]
from celerylab import wrong_answers
for answer in wrong_answers.in_lesson(Path("src/celerylab/lessons/l99_demo")):
    folder = Path(tempfile.mkdtemp())
    answer.install(folder, "ex_double")
    verdict = run_check(exercise, folder, include_hidden=True)
    verdicts[f"wrong/{answer.slug}"] = [verdict.passed, verdict.error]
print(json.dumps(verdicts))
"""
LINKS = """
import json
from celerylab.rule_lessons import taught_in
from celerylab.sitegen.audit_pages import lesson_rules, rules_page
from celerylab.sitegen.matrix_page import claim_label
titles = {"01_retries": "01", "99_demo": "99"}
print(json.dumps({"taught": taught_in("l99_demo"), "rules_page": rules_page("en", titles),
                  "lesson_rules": lesson_rules("99_demo", "pt"),
                  "claim": claim_label("l99_demo::test_the_worker_returns_what_it_is_sent", "en", titles)}))
"""


def changed_outside(src: Path, clone_src: Path, folder: str) -> list[str]:
    """Files of `clone_src` that differ from `src` (or are new), the lesson folder `folder` aside."""
    def files(root):
        return {path.relative_to(root).as_posix(): path for path in root.rglob("*")
                if path.is_file() and "__pycache__" not in path.parts}
    before, after = files(src), files(clone_src)
    return sorted(name for name, path in after.items() if not name.startswith(folder)
                  and (name not in before or before[name].read_bytes() != path.read_bytes()))


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
    lesson = clone / "src" / "celerylab" / "lessons" / "l99_demo"
    out = tmp_path / "claims.json"
    done = run("-m", "pytest", "-o", "addopts=", "-p", "no:cacheprovider", "-n", "0", "-p", "celerylab.testing.plugin",
               "-p", "celerylab.testing.claims", f"--claims-json={out}", str(lesson / "test_claims_demo.py"))
    assert done.returncode == 0, done.stdout[-3000:]
    assert json.loads(out.read_text())["claims"] == {"l99_demo::test_the_worker_returns_what_it_is_sent": {
        "outcome": "passed", "message": "", "observed": {"returned": "olá / hello"}}}
    source = lesson / "lesson.md"
    source.write_text(source.read_text().replace('+++ {"id": "echo-intro"}',
                                                 '+++ {"id": "echo-intro", "audit_again": ["CL301"]}'))
    done = run("-m", "celerylab.cli", "dev", "check", "--lesson", "l99_demo", "--no-stale")
    assert done.returncode == 0, (done.stdout, done.stderr)
    done = run("-c", LINKS)
    assert done.returncode == 0, done.stderr
    links = json.loads(done.stdout.splitlines()[-1])
    section = "lessons/99_demo.md#1-a-task-on-a-real-worker"
    assert links["taught"] == {"CL301": "echo-intro"}
    assert f"[99]({section})" in links["rules_page"].split("## CL301 ")[1].split("\n## ")[0]
    assert "- [CL301](../audit.md#cl301)" in links["lesson_rules"]
    assert links["claim"].endswith(f"]({section})")
    assert changed_outside(ROOT / "src", clone / "src", "celerylab/lessons/l99_demo/") == ["celerylab/course.yml"]
