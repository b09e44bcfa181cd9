"""Checks the worker's in-memory revoked set instead of the row's flag: in a prefork child that set is never updated by the parent, so the report never stops. Violates: "Make `ex.report` (one page per student, `step` seconds each) honour that request." Blind review.
"""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app

from celery.worker import state as worker_state


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if self.request.id in worker_state.revoked:
            jobs.set_state(self.request.id, "cancelled")
            return {"students": current - 1, "cancelled": True}
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    return {"students": total}
