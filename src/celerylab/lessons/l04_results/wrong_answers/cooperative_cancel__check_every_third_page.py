"""Looks at the cancel flag only every third page to spare the database, so with step=0.6 s a cancel can wait up to 1.8 s, past the required 1 s (it only fits the default 0.25 s step). Violates: "a report cancelled halfway ends with its row in `"cancelled"` (`jobs.set_state(job_id, "cancelled")`) within 1 s of the request;". Blind review.

Tuned to the stub's default step: 3 x 0.25 s = 0.75 s is comfortably inside
the limit; the statement allows steps up to 0.6 s.

Blind review.
"""
import time

from celery.exceptions import Ignore

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app

CHECK_EVERY = 3  # pages between two looks at the flag


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if current % CHECK_EVERY == 1 and jobs.cancel_requested(self.request.id):
            jobs.set_state(self.request.id, "cancelled")
            raise Ignore()
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    return {"students": total}
