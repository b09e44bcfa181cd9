"""On the flag it marks the row cancelled and stops writing progress, but keeps working through every remaining page to the end, holding the pool's only process as long as an uncancelled report would. Violates: "and the task itself ends too, freeing the pool's only process: a job queued behind it starts within 2 s of the request;". Blind review.
"""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    cancelled = False
    for current, _student in enumerate(student_ids, 1):
        if not cancelled and jobs.cancel_requested(self.request.id):
            jobs.set_state(self.request.id, "cancelled")
            cancelled = True
        if not cancelled:
            self.update_state(state="PROGRESS", meta={"current": current, "total": total})
            jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    return {"students": total, "cancelled": cancelled}
