"""When the flag is set, marks the row and calls revoke(terminate=True) on its own id, so the worker sends SIGTERM to the very pool process running the report. Violates: "the pool process that ran the report is the same before and after (no process died);". Blind review.

Looks like "make sure it really stops": the row is "cancelled" before the
signal arrives, progress is below the total, and a process dies.

Blind review.
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
            self.app.control.revoke(self.request.id, terminate=True)
            time.sleep(5)  # wait for the worker to stop us
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    return {"students": total}
