"""Remote grading trusts no message: a worker confines every job whatever the message says and runs no unsigned
one; the grader takes no unsigned, altered or replayed result (each is a grader failure for that entry)."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from celerylab.grader import signing
from celerylab.grader.remote import RemoteBatch
from celerylab.grader.spec import JobResult, JobSpec

SCORE = {"verdicts": {"l90.double": {"criteria": [{"key": "x", "expected": "1", "observed": "1", "passed": True}]}}}


@dataclass
class Finished:
    """A finished Celery result as RemoteBatch.poll reads it."""

    result: object

    def ready(self) -> bool:
        return True

    def successful(self) -> bool:
        return True


def polled(task_id: str, returned) -> tuple:
    batch = RemoteBatch.__new__(RemoteBatch)
    batch.pending = {task_id: ("prepared", "item", Finished(returned), float("inf"))}
    return next(batch.poll())


def test_only_a_result_signed_for_its_own_task_is_taken(grading_key):
    _, _, result, error = polled("task-1", signing.sign("result", "task-1", SCORE))
    assert error is None and result.verdicts["l90.double"].passed
    for forged in (SCORE,                                                     # unsigned (the forgery)
                   {**signing.sign("result", "task-1", SCORE), "payload": {"verdicts": {}}},  # altered
                   signing.sign("result", "task-2", SCORE),                   # a classmate's, replayed
                   signing.sign("job", "task-1", SCORE)):                     # a job passed off as a result
        _, _, result, error = polled("task-1", forged)
        assert result is None and error.startswith("Unsigned"), forged


def test_a_worker_confines_every_job_whatever_the_message_says(grading_key, monkeypatch):
    from celerylab.grader import celery_app, job_supervisor

    ran = []
    monkeypatch.setattr(job_supervisor, "run_job", lambda job: ran.append(job) or JobResult())
    hostile = JobSpec(["l90.double"], confine=False, uid=0, service_uid=0).to_record()
    returned = celery_app.grade_submission.apply(args=(signing.sign("job", "t-1", hostile),), task_id="t-1").get()
    assert [(job.confine, job.uid, job.service_uid) for job in ran] == [(True, None, None)]
    assert signing.verify("result", "t-1", returned)["verdicts"] == {}


def test_a_worker_runs_no_unsigned_or_altered_job(grading_key, monkeypatch):
    from celerylab.grader import celery_app, job_supervisor

    monkeypatch.setattr(job_supervisor, "run_job", lambda job: pytest.fail("an unsigned job ran"))
    job = JobSpec(["l90.double"]).to_record()
    for message in (job, signing.sign("job", "other-task", job), {**signing.sign("job", "t-2", job), "payload": {}}):
        outcome = celery_app.grade_submission.apply(args=(message,), task_id="t-2")
        assert isinstance(outcome.result, signing.Unsigned)
