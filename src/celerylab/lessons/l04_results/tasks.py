"""Lesson 04's Celery app: a welcome e-mail, a bulk send, a long report with PROGRESS; signals keep the job table."""
from __future__ import annotations

import time

from celery import signals

from celerylab.lessons.l04_results import jobs
from celerylab.stack.appconfig import create_app

app = create_app("l04_results")


@app.task(name="l04.welcome")
def welcome(email: str, name: str) -> dict:
    """Send the welcome e-mail (simulated: 0.2 s); an address without @ is refused."""
    time.sleep(0.2)
    if "@" not in email:
        raise ValueError(f"invalid address: {email}")
    return {"status": "sent", "to": email}


@app.task(name="l04.bulk")
def bulk(recipients: list[str], subject: str) -> dict:
    time.sleep(0.05 * len(recipients))
    return {"total": len(recipients), "sent": len(recipients)}


@app.task(name="l04.report", bind=True)
def report(self, student_ids: list[int], period: str, step: float = 0.25) -> dict:
    """One page per student; the progress goes to the backend (PROGRESS) and to the job's row."""
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    return {"path": f"/reports/report_{period}.pdf", "students": total}


@app.task(name="l04.slow")
def slow(seconds: float) -> str:
    time.sleep(seconds)
    return "done"


@app.task(name="l04.double")
def double(x: int) -> int:
    return x * 2


# The job table follows every job's life, whatever the task. Jobs without a row (tasks sent
# outside the application) update nothing: an UPDATE that matches no row is harmless.
@signals.task_prerun.connect
def _running(task_id=None, **_):
    jobs.set_state(task_id, "running", unless=jobs.FINISHED)


@signals.task_success.connect
def _done(sender=None, result=None, **_):
    jobs.finish(sender.request.id, result)


@signals.task_failure.connect
def _failed(task_id=None, exception=None, **_):
    jobs.fail(task_id, repr(exception))


@signals.task_revoked.connect
def _revoked(request=None, **_):
    jobs.set_state(request.id, "revoked")
