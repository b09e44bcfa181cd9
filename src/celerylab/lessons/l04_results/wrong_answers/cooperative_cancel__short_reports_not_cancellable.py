"""Skips the cancel check for reports of up to 5 students ("they finish in a few seconds anyway"): a 5-student report at 0.6 s a page runs 3 s, so one cancelled halfway ends "done" with every student about 1.5 s after the request; a longer report, as the check is likely to cancel, stops in time. Violates: "a report cancelled halfway ends with its row in `"cancelled"` (`jobs.set_state(job_id, "cancelled")`) within 1 s of the request". Blind review."""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app

SHORT_REPORT = 5  # students


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    cancellable = total > SHORT_REPORT
    for current, _student in enumerate(student_ids, 1):
        if cancellable and jobs.cancel_requested(self.request.id):
            jobs.set_state(self.request.id, "cancelled")
            return {"cancelled_after": current - 1, "students": total}
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    return {"students": total}
