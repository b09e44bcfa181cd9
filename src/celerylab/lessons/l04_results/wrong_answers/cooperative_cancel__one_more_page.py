"""On seeing the flag, still makes one more full page ("a clean page boundary") before it marks the row cancelled and returns, so a page begins after the request. Violates: "its progress stays at the page it was on when the request arrived: no page begins after the request". Blind review."""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    stopping = False
    for current, _student in enumerate(student_ids, 1):
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
        if stopping:
            jobs.set_state(self.request.id, "cancelled")
            return {"students": current, "cancelled": True}
        stopping = jobs.cancel_requested(self.request.id)
    return {"students": total}
