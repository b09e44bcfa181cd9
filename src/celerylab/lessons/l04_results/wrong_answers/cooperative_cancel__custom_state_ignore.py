"""On cancel overwrites the backend with a custom CANCELLED state whose meta is {"students": total} (looks like a full report) and raises Ignore. Violates: "what it returns says how far it got, and does not pass for a full report". Blind review.
"""
import time

from celery.exceptions import Ignore

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


def _stop(self, total):
    jobs.set_state(self.request.id, "cancelled")
    self.update_state(state="CANCELLED", meta={"students": total})
    raise Ignore()


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if jobs.cancel_requested(self.request.id):
            _stop(self, total)
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        end = time.monotonic() + step
        while time.monotonic() < end:
            if jobs.cancel_requested(self.request.id):
                _stop(self, total)
            time.sleep(min(0.05, max(0, end - time.monotonic())))
    return {"students": total}
