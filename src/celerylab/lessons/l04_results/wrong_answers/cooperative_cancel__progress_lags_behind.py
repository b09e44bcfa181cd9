"""Reports current - 1 as progress so it "stays below the total": an uncancelled report also ends one short, never showing every student. Violates: "a report nobody cancelled ends `"done"` with every student." Blind review.
"""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        self.update_state(state="PROGRESS", meta={"current": current - 1, "total": total})
        jobs.progress(self.request.id, current - 1, total)
        time.sleep(step)  # this student's page
        if jobs.cancel_requested(self.request.id):
            jobs.set_state(self.request.id, "cancelled")
            return {"students": current, "cancelled": True}
    return {"students": total}
