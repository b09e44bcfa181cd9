"""The grading Celery app: workers on any machine run grading jobs (``celery -A celerylab.grader.celery_app worker``)."""
from __future__ import annotations

from celerylab.stack.appconfig import create_app

TASK = "celerylab.grading.grade_submission"

app = create_app("celerylab-grading", task_acks_late=True, worker_prefetch_multiplier=1,
                 task_serializer="json", result_serializer="json", accept_content=["json"],
                 result_expires=24 * 3600)


@app.task(name=TASK, bind=True)
def grade_submission(self, job: dict) -> dict:
    """Run one prepared grading job on this worker and return what it observed (and which worker)."""
    from dataclasses import replace

    from celerylab.grader.job_supervisor import run_job
    from celerylab.grader.spec import JobSpec

    result = run_job(JobSpec.from_record(job))
    return replace(result, worker=self.request.hostname).to_record()
