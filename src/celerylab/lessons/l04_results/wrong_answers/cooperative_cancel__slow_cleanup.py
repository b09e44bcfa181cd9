"""After seeing the flag, spends 1 s "cleaning up" before marking the row: with 0.6 s pages and a request early in a page, the row turns cancelled about 1.6 s after the request, past the 1 s bound in every case with 0.6 s pages. Violates: "a report cancelled halfway ends with its row in `"cancelled"` (`jobs.set_state(job_id, "cancelled")`) within 1 s of the request". Blind review.
"""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if jobs.cancel_requested(self.request.id):
            time.sleep(1.0)  # remove the partial PDF, close files...
            jobs.set_state(self.request.id, "cancelled")
            return {"students": current - 1, "cancelled": True}
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    return {"students": total}
