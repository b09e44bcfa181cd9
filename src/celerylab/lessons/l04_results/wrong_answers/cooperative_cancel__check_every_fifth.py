"""Reads the cancel flag only every 5th student to spare the database: the stop lags up to 5 steps, within 1 s only while step is small. Violates: "a report cancelled halfway ends with its row in `"cancelled"` (`jobs.set_state(job_id, "cancelled")`) within 1 s of the request;" Blind review.
"""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app

CHECK_EVERY = 5


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if current % CHECK_EVERY == 0 and jobs.cancel_requested(self.request.id):
            jobs.set_state(self.request.id, "cancelled")
            return {"students": current - 1, "cancelled": True}
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    return {"students": total}
