"""A grading job whose process dies while a check runs, confined as in a real grading: the exercise is checked once
more in a fresh attempt; only a check that kills its job again is lost, and the jobs' log is kept for the instructor.

The one thing that survives from one attempt to the next is the answer modules (sandbox/attempt.py carries them):
the answer that kills its job only once rewrites itself before it does."""
from __future__ import annotations

import os
import time

import nbformat
import pytest
import submissions
from grading_files import COURSE, EXERCISES

from celerylab.course import Course
from celerylab.grader import job_supervisor
from celerylab.grader.intake import Found
from celerylab.grader.job_supervisor import run_job
from celerylab.grader.prepare import Limits, prepare

pytestmark = [pytest.mark.live, pytest.mark.timeout(300),
              pytest.mark.skipif(os.geteuid() != 0, reason="the full confinement (its own users, pid namespace) "
                                                            "needs root (run the suite as root: sudo)")]
LIMITS = Limits(cell_timeout=20, notebook_timeout=30, check_timeout=20)
IN_THE_JOB = 'sys.argv[0].endswith(os.path.join("grader", "job.py"))'  # the job's process, not the learner's kernel
KILLS_ONCE = ("%%writefile ex_greet.py\nimport os, sys\nFIRST = True\n"
              f"if FIRST and {IN_THE_JOB}:\n"
              "    with open(__file__, encoding='utf-8') as own:\n"
              "        source = own.read().replace('FIRST = ' + 'True', 'FIRST = ' + 'False')\n"
              "    with open(__file__, 'w', encoding='utf-8') as own:\n"
              "        own.write(source)\n"
              "    os._exit(1)\n"
              "def greet(name, lang):\n    return f'Olá, {name}!' if lang == 'pt' else f'Hello, {name}!'\n")
KILLS_ALWAYS = f"%%writefile ex_greet.py\nimport os, sys\nif {IN_THE_JOB}:\n    os._exit(1)\n"


def graded_alone(tmp_path, monkeypatch, greet: str, exercises: list[str], limits: Limits = LIMITS):
    """run_job on a notebook whose greet answer is `greet`, checking `exercises`: the result and its attempts."""
    path = tmp_path / "subs" / "ana.ipynb"
    path.parent.mkdir(parents=True)
    path.write_text(nbformat.writes(submissions.solved(greet=greet)))
    prepared = prepare(Found(path, "ana", "ana.ipynb"), path.parent, EXERCISES, Course.at(COURSE), limits)
    prepared.job.exercises = exercises
    attempts = []
    real = job_supervisor.launch
    monkeypatch.setattr(job_supervisor, "launch", lambda spec, *args: attempts.append(list(spec.exercises))
                        or real(spec, *args))
    started = time.monotonic()
    result = run_job(prepared.job)
    return result, attempts, time.monotonic() - started


def test_a_check_that_killed_its_job_once_gets_the_verdict_of_its_retry(tmp_path, monkeypatch):
    result, attempts, _ = graded_alone(tmp_path, monkeypatch, KILLS_ONCE, ["l90.greet"])
    assert result.confinement["missing"] == [], result.confinement
    assert not result.verdicts["l90.greet"].crashed and result.verdicts["l90.greet"].passed, result.log
    assert attempts == [["l90.greet"], ["l90.greet"]]
    assert "--- job0.log" in result.log  # the first job died: its log is the instructor's to read


def test_a_check_that_kills_its_job_every_time_is_lost_after_two_attempts_with_its_log(tmp_path, monkeypatch):
    result, attempts, _ = graded_alone(tmp_path, monkeypatch, KILLS_ALWAYS, ["l90.greet"])
    assert result.verdicts["l90.greet"].crashed and not result.verdicts["l90.greet"].passed
    assert attempts == [["l90.greet"], ["l90.greet"]]
    assert "--- job0.log" in result.log and "--- job1.log" in result.log


def test_a_check_that_stalls_then_kills_its_job_every_time_never_takes_it_past_its_end(tmp_path, monkeypatch):
    """As a loop the CPU limit kills: the job dies late in its time, each time. Its retry is ended at the job's
    one end (the first attempt took most of it), and the exercise is lost."""
    monkeypatch.setattr(job_supervisor, "START_SECONDS", 0)
    limits = Limits(cell_timeout=10, notebook_timeout=10, check_timeout=20)
    end = limits.notebook_timeout + limits.check_timeout  # run_job's end, from its start
    stalls = f"%%writefile ex_greet.py\nimport os, sys, time\nif {IN_THE_JOB}:\n    time.sleep({0.6 * end})\n    os._exit(1)\n"
    result, attempts, took = graded_alone(tmp_path, monkeypatch, stalls, ["l90.greet"], limits)
    assert result.verdicts["l90.greet"].crashed and "--- job0.log" in result.log
    assert attempts == [["l90.greet"], ["l90.greet"]]  # retried, for what was left of the job's time
    assert took <= end + 4, took  # the end, and the clean-up of the attempt ended there (30.0 s of 30 here)
