"""Looks at the flag only during the first 120 pages: a report of more than 120 students cannot be cancelled after page 120. Violates: "a report cancelled before it ends (during its last page too: the task has not ended yet, and looks at the flag once more before it returns) has its row in `"cancelled"` (`jobs.set_state(job_id, "cancelled")`) within 1 s of the request, whatever the report's size, its `step` or how long it has run". Blind review.
"""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if current <= 120 and jobs.cancel_requested(self.request.id):
            jobs.set_state(self.request.id, "cancelled")
            return {"cancelled_after": current - 1, "students": total}
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    if total <= 120 and jobs.cancel_requested(self.request.id):
        jobs.set_state(self.request.id, "cancelled")
        return {"cancelled_after": total, "students": total}
    return {"students": total}
