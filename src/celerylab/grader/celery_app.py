"""The grading Celery app: workers on any machine run grading jobs (``celery -A celerylab.grader.celery_app worker``).

A worker runs only jobs signed with the key it shares with the instructor (grader/signing.py), always in
its own sandbox: whether and how to confine is this worker's decision, never the message's (a
``"confine": false``, a user id or a result is ignored or refused), and it signs what it returns.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from celerylab.stack.appconfig import create_app

if TYPE_CHECKING:
    from celerylab.grader.spec import JobSpec

TASK = "celerylab.grading.grade_submission"

app = create_app("celerylab-grading", task_acks_late=True, worker_prefetch_multiplier=1,
                 task_serializer="json", result_serializer="json", accept_content=["json"],
                 result_expires=24 * 3600)


def worker_job(record) -> JobSpec:
    """The job a message asks for, with this worker's sandbox: confined, its own users picked here."""
    from dataclasses import replace

    from celerylab.grader.spec import JobSpec

    job = JobSpec.from_record(record if isinstance(record, dict) else {})
    return replace(job, confine=True, uid=None, service_uid=None, probe=False, execute=False, workdir=None)


@app.task(name=TASK, bind=True)
def grade_submission(self, message: dict) -> dict:
    """Run one signed grading job on this worker; return what it observed (and which worker), signed."""
    from dataclasses import replace

    from celerylab.grader import signing
    from celerylab.grader.job_supervisor import run_job

    job = worker_job(signing.verify("job", self.request.id, message))
    result = run_job(job)
    return signing.sign("result", self.request.id, replace(result, worker=self.request.hostname).to_record())
