"""A learner's cell that stops its own job process (SIGSTOP) cannot hold the batch: the watchdog outside the
sandbox ends the attempt at the notebook's deadline, the entry is the learner's timeout, the checks still run."""
from __future__ import annotations

import os

import nbformat
import pytest
import submissions
from grading_files import COURSE, EXERCISES

from celerylab.course import Course
from celerylab.grader import job_supervisor
from celerylab.grader.intake import Found
from celerylab.grader.job_launch import job_folder
from celerylab.grader.job_supervisor import run_job
from celerylab.grader.prepare import Limits, prepare

pytestmark = [pytest.mark.live, pytest.mark.timeout(400)]
STOP = "import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)  # the job process: it never reads another reply"


@pytest.mark.skipif(os.geteuid() != 0, reason="the full confinement (its own users, pid namespace) needs root"
                                                  " (run the suite as root: sudo)")
def test_a_job_its_learner_stopped_is_ended_at_the_notebooks_deadline(tmp_path, monkeypatch):
    path = tmp_path / "subs" / "mallory.ipynb"
    path.parent.mkdir(parents=True)
    path.write_text(nbformat.writes(submissions.with_cell_before("check-greet", STOP)))
    limits = Limits(cell_timeout=20, notebook_timeout=20, check_timeout=90)
    prepared = prepare(Found(path, "mallory", "mallory.ipynb"), path.parent, EXERCISES, Course.at(COURSE), limits)
    made = []
    monkeypatch.setattr(job_supervisor, "job_folder", lambda: made.append(job_folder()) or made[-1])
    result = run_job(prepared.job)
    assert result.confinement["missing"] == [], result.confinement
    assert [note["kind"] for note in result.execution] == ["notebook_timeout"]
    assert {exercise: verdict.passed for exercise, verdict in result.verdicts.items()} == {
        "l90.double": True, "l90.greet": True}  # the answers written before the stop, checked in a fresh attempt
    assert len(made) == 1 and not made[0].exists()  # no folder left behind (/dev/shm as root)
