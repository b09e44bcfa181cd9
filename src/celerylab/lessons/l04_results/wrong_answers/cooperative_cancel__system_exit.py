"""Stops a cancelled report by raising SystemExit, which Celery's tracer re-raises, so the prefork child that ran it exits and the pool replaces it. Violates: "the pool process that ran the report is the same before and after (no process died);". Blind review.

The row is "cancelled" in time and the progress stays below the total; it is
terminate=True by another name.

Blind review.
"""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if jobs.cancel_requested(self.request.id):
            jobs.set_state(self.request.id, "cancelled")
            raise SystemExit("report cancelled")
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    return {"students": total}
