"""How long each exercise's check takes, as a learner runs it: the untouched stub (a wrong first attempt) and the
solution, with `celerylab check` (visible criteria) and, with ``--graded``, hidden criteria too (an instructor's grade).

Run by hand: ``.venv/bin/python benchmarks/check_times.py [--lesson l08_rabbitmq ...] [--graded] [--runs N]``.
Each check is a fresh ``celerylab check EX --dir D`` process (the learner's terminal; a notebook kernel saves the
imports after its first check), so its time includes the command's start. Prints a Markdown table of median wall
seconds per exercise, whether each verdict was the expected one, and the load average before and after: on a busy
machine the times are upper bounds (the checks wait for live processes).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from celerylab.checks.extract import extract_modules
from celerylab.course import Course

REPO = Path(__file__).resolve().parents[1]
CLI = Path(sys.executable).parent / "celerylab"
TARGET = 10.0  # seconds: the course's goal for every check on a quiet machine


def modules(notebook: Path, folder: Path) -> Path:
    """The answer modules `notebook` writes, extracted into `folder` (the stubs, or the solutions)."""
    folder.mkdir(parents=True, exist_ok=True)
    extract_modules(nbformat.read(notebook, as_version=4), folder)
    return folder


#: What `grade` runs for one exercise, hidden criteria included (the command line has no such switch).
GRADED = """
import sys
from pathlib import Path
from celerylab.checks.check_run import run_check
from celerylab.course import Course
course = Course.at_checkout(sys.argv[1])
verdict = run_check(course.find_exercise(sys.argv[2]), Path(sys.argv[3]), include_hidden=True)
sys.exit(0 if verdict.passed else 1)
"""


def timed_check(exercise_id: str, folder: Path, graded: bool, home: Path) -> tuple[float, bool]:
    """Wall seconds of one check in a process of its own, and whether it passed (exit status 0); `home` keeps the
    learner's progress it records away from yours."""
    argv = ([sys.executable, "-c", GRADED, str(REPO), exercise_id, str(folder)] if graded
            else [str(CLI), "check", exercise_id, "--dir", str(folder), "--lang", "en"])
    start = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=900, cwd=folder,
                          env={**os.environ, "HOME": str(home)})
    return time.monotonic() - start, done.returncode == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--lesson", action="append", help="only these lesson folders (repeatable)")
    parser.add_argument("--graded", action="store_true", help="hidden criteria too (as `grade` runs them)")
    parser.add_argument("--runs", type=int, default=1, help="runs per check; the median is shown")
    args = parser.parse_args()
    course = Course.at_checkout(REPO)
    print(f"load before: {os.getloadavg()[0]:.1f}", flush=True)
    print("| exercise | stub s | stub verdict | solution s | solution verdict |\n|---|---|---|---|---|", flush=True)
    with tempfile.TemporaryDirectory() as scratch:
        home = Path(scratch) / "home"
        home.mkdir()
        for lesson in course.lessons(args.lesson):
            stubs = modules(course.notebook_path(lesson, "en", "exercises"), Path(scratch) / lesson.name / "stub")
            solved = modules(course.notebook_path(lesson, "pt", "solutions"), Path(scratch) / lesson.name / "solved")
            for exercise in course.exercises(lesson.name):
                row = [exercise.id]
                for folder, expected in ((stubs, False), (solved, True)):
                    runs = [timed_check(exercise.id, folder, args.graded, home) for _ in range(args.runs)]
                    seconds = statistics.median(s for s, _ in runs)
                    verdicts = {passed for _, passed in runs}
                    mark = "over" if seconds > TARGET else "ok"
                    row += [f"{seconds:.1f} ({mark})", "as expected" if verdicts == {expected} else f"UNEXPECTED {verdicts}"]
                print("| " + " | ".join(row) + " |", flush=True)
    print(f"load after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
