"""Begins the next page (row and result-backend progress written), then reads the flag and rolls the row back by one, so a page begins after the request even though the row ends where it was. Violates: "its progress stays at the page it was on when the request arrived: no page begins after the request". Blind review."""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        if jobs.cancel_requested(self.request.id):
            jobs.progress(self.request.id, current - 1, total)  # this page never really ran
            jobs.set_state(self.request.id, "cancelled")
            return {"students": current - 1, "cancelled": True}
        time.sleep(step)  # this student's page
    return {"students": total}
