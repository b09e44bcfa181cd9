"""Returns a dict holding every page number 0..total as values, so it never says how far it got. Violates: "whatever the backend holds for it at the end, in any state, is a dict whose `cancelled_after` is the number of pages it did". Blind review.
"""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


def _stopped(total):
    out = {f"page_{i}": i for i in range(total + 1)}
    out["cancelled"] = "yes"
    return out


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if jobs.cancel_requested(self.request.id):
            jobs.set_state(self.request.id, "cancelled")
            return _stopped(total)
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    if jobs.cancel_requested(self.request.id):
        jobs.set_state(self.request.id, "cancelled")
        return _stopped(total)
    return {"students": total}
