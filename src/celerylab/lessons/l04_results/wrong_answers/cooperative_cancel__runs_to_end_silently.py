"""After the request it skips the remaining pages (no progress, no sleep) but runs the loop to the end and returns the full report. Violates: "and the task stops before the end". Blind review.
"""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app

@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    job_id = self.request.id
    total = len(student_ids)
    cancelled = False
    for current, _student in enumerate(student_ids, 1):
        if not cancelled and jobs.cancel_requested(job_id):
            jobs.set_state(job_id, "cancelled")
            cancelled = True
        if cancelled:
            continue
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(job_id, current, total)
        time.sleep(step)
    return {"students": total}
