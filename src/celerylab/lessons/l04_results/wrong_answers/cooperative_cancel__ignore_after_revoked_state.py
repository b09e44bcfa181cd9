"""Stores REVOKED with the reason only and raises Ignore so that state stays. Violates: "whatever the backend holds for it at the end, in any state, is a dict whose `cancelled_after` is the number of pages it did". Blind review."""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app

from celery.exceptions import Ignore


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if jobs.cancel_requested(self.request.id):
            jobs.set_state(self.request.id, "cancelled")
            self.update_state(state="REVOKED", meta={"reason": "cancelled", "total": total})
            raise Ignore()
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    return {"students": total}
