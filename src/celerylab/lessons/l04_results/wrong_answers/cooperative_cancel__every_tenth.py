"""Looks at the cancel flag only every max(1, total // 10) pages: a report of fewer than 20 students still looks before every page, but a longer one, cancelled inside a page that is not a multiple of its stride (page 13 of 120: a look every 12 pages; the statement says the check enqueues reports of 3 to 120 students), begins pages after the request and ends with its progress past the page it was on. Violates: "its progress stays at the page it was on when the request arrived: no page begins after the request". Blind review."""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    every = max(1, total // 10)
    for current, _student in enumerate(student_ids, 1):
        if (current - 1) % every == 0 and jobs.cancel_requested(self.request.id):
            jobs.set_state(self.request.id, "cancelled")
            return {"cancelled_after": current - 1, "students": total}
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    return {"students": total}
