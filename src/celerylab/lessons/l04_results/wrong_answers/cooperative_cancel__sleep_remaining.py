"""On the flag it marks the row cancelled and returns, but only after sleeping for the remaining pages' time, holding the pool's only process as long as an uncancelled report would. Violates: "and the task itself ends too, freeing the pool's only process: a job queued behind it starts within 2 s of the request;". Blind review.
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
            time.sleep(step * (total - current + 1))  # keep the report's usual duration
            return {"students": current - 1, "cancelled": True}
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    return {"students": total}
