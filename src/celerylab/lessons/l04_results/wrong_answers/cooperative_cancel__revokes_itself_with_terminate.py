"""Writes cancelled, then revokes itself with terminate=True: the worker kills the pool process that runs it. Violates: "without killing the process"."""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if jobs.cancel_requested(self.request.id):
            jobs.set_state(self.request.id, "cancelled")
            app.control.revoke(self.request.id, terminate=True)
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)
    return {"students": total}
