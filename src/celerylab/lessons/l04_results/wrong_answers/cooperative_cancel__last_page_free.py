"""Does not spend `step` on the last page (no sleep after the final student), so every report is one page of work short. Violates: "Make `ex.report` (one page per student, `step` seconds each) honour that request". Blind review.
"""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app

@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    job_id = self.request.id
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if jobs.cancel_requested(job_id):
            jobs.set_state(job_id, "cancelled")
            return {"cancelled_after": current - 1, "students": total}
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(job_id, current, total)
        if current < total:
            time.sleep(step)
    return {"students": total}
