"""The grader run from a course installed under a 0700 folder (as under /root or a `mktemp -d`): exact scores,
a clear refusal when the job's user cannot import the course, and a grader failure that is never the learner's."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import submissions
from grading_files import COURSE, EXERCISES

import celerylab

pytestmark = [pytest.mark.live, pytest.mark.timeout(600)]
NAMES = ["good_pt", "partial", "unsolved"]
GRADE = '''
import json, sys
from pathlib import Path
from celerylab.course import Course
from celerylab.grader.batch import Options, grade
from celerylab.grader.prepare import Limits
subs, out, course, exercises = sys.argv[1:5]
summary = grade(subs, Options(out=Path(out), jobs=1, exercises_dir=Path(exercises), course=Course.at(course),
                              show_progress=False, limits=Limits(cell_timeout=30, notebook_timeout=120, check_timeout=60)))
print(json.dumps(summary.__dict__))
'''


@pytest.fixture
def private(tmp_path):
    """A copy of the package and of the fixture course under a folder only root may enter, outside /tmp."""
    if os.geteuid() != 0:
        pytest.skip("the job's own user (and so a private folder it cannot enter) needs root "
                    "(run the suite as root: sudo)")
    base = Path(tempfile.mkdtemp(prefix=".celerylab-private-", dir=Path.home()))
    base.chmod(0o700)
    try:
        shutil.copytree(Path(celerylab.__file__).parent, base / "src" / "celerylab",
                        ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(COURSE, base / "course")
        shutil.copytree(EXERCISES, base / "exercises")
        submissions.write_all(tmp_path / "subs", NAMES)
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


def run_private(base: Path, *argv: str, script: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(base / "src")}
    script = script or "import sys; from celerylab.cli import main; sys.exit(main(sys.argv[1:]))"
    command = [sys.executable, "-c", script, *argv]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=540)


def book(out: Path) -> dict:
    return json.loads((out / "gradebook.json").read_text())["submissions"]


def test_a_course_under_a_private_folder_is_graded_exactly(private, tmp_path):
    done = run_private(private, str(tmp_path / "subs"), str(tmp_path / "out"), str(private / "course"),
                       str(private / "exercises"), script=GRADE)
    assert done.returncode == 0, done.stderr[-3000:]
    entries = book(tmp_path / "out")
    got = {name: ({k: v["points"] for k, v in entry["exercises"].items()}, entry["status"])
           for name, entry in entries.items()}
    assert got == {name: (submissions.CASES[name][1], "graded") for name in NAMES}
    assert "celerylab" in run_private(private, script="import celerylab; print(celerylab.__file__)").stdout \
        and str(private) in run_private(private, script="import celerylab; print(celerylab.__file__)").stdout


def unreadable(base: Path, module: str) -> None:
    """A module of the copy that only root can read: the job's own user cannot import it."""
    (base / "src" / "celerylab" / Path(*module.split("."))).with_suffix(".py").chmod(0o600)


def test_a_job_user_that_cannot_import_the_course_is_refused_before_the_batch(private, tmp_path):
    unreadable(private, "grader.sandbox.execute")
    done = run_private(private, "grade", str(tmp_path / "subs"), "--out", str(tmp_path / "out"),
                       "--lessons-dir", str(private / "course"), "--exercises", str(private / "exercises"),
                       "--lang", "en")
    assert done.returncode == 2, (done.stdout[-2000:], done.stderr[-2000:])
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "cannot import the course" in lines[0] and "PermissionError" in lines[0], lines
    assert not (tmp_path / "out" / "gradebook.json").exists()
    assert "PermissionError" in (tmp_path / "out" / "logs" / "probe.log").read_text()


def test_a_job_that_dies_before_its_checks_is_a_grader_failure_not_a_zero(private, tmp_path):
    unreadable(private, "checks.check_run")  # imported by the job once confined, before any check starts
    argv = (str(tmp_path / "subs"), str(tmp_path / "out"), str(private / "course"), str(private / "exercises"))
    done = run_private(private, *argv, script=GRADE)
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout.splitlines()[-1])
    assert (summary["graded"], summary["failed"]) == (0, len(NAMES))
    entries = book(tmp_path / "out")
    for name, entry in entries.items():
        assert entry["status"] == "grader_failure" and entry["reason"]["key"] == "grading.reason.grader_failure"
        assert not any(scored.get("crashed") for scored in entry["exercises"].values())
        log = (tmp_path / "out" / entry["reason"]["values"]["log"]).read_text()
        assert "PermissionError" in log and "check_run.py" in log
        feedback = (tmp_path / "out" / "feedback" / f"{name}.md").read_text()
        assert "falha do corretor, não da resposta" in feedback and "travou" not in feedback
    again = json.loads(run_private(private, *argv, script=GRADE).stdout.splitlines()[-1])
    assert again["skipped"] == 0 and again["failed"] == len(NAMES)  # regraded by the next run, not kept
