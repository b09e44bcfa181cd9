"""`grade --broker URL`: grading jobs sent as Celery tasks to two workers, with the same points as locally."""
from __future__ import annotations

import json

import pytest
import submissions
from grading_files import EXERCISES, FIXTURE_COURSE

from celerylab.grader.batch import Options, grade
from celerylab.grader.prepare import Limits
from celerylab.stack import Stack

pytestmark = [pytest.mark.live, pytest.mark.slow, pytest.mark.timeout(600), pytest.mark.needs("redis-server")]

def test_two_workers_share_the_batch(tmp_path, grading_key):
    folder = submissions.write_all(tmp_path / "in", ["good_pt", "partial", "unsolved", "invalid_json"])
    out = tmp_path / "out"
    limits = Limits(cell_timeout=30, notebook_timeout=90, check_timeout=60)
    # the workers learn the course from each job's spec, not from their environment
    with Stack.start("celerylab.grader.celery_app", workers=2, broker_kind="redis-server", timeline=False) as stack:
        options = Options(out=out, broker=stack.broker.url, exercises_dir=EXERCISES, course=FIXTURE_COURSE,
                          limits=limits, show_progress=False)
        summary = grade(folder, options)
        logs = [worker.logs for worker in stack.workers]
    assert (summary.graded, summary.rejected, summary.failed) == (3, 1, 0)
    book = json.loads((out / "gradebook.json").read_text())["submissions"]
    assert {name: entry["total"] for name, entry in book.items()} == {
        "good_pt": 5, "partial": 2, "unsolved": 0, "invalid_json": 0}
    assert all("celerylab.grading.grade_submission" in log and "succeeded" in log for log in logs)
