"""Looks at the flag before each page but, once asked, waits one more step "to flush" before marking the row cancelled: with 0.6 s pages and a request early in a page, the row turns cancelled almost two steps (about 1.15 s) after the request. Violates: "a report cancelled halfway ends with its row in `"cancelled"` (`jobs.set_state(job_id, "cancelled")`) within 1 s of the request". Blind review."""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    done = 0
    for current, _student in enumerate(student_ids, 1):
        if jobs.cancel_requested(self.request.id):
            time.sleep(step)  # let the PDF writer flush
            jobs.set_state(self.request.id, "cancelled")
            return {"cancelled_after": done, "students": total}
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
        done = current
    return {"students": total}
