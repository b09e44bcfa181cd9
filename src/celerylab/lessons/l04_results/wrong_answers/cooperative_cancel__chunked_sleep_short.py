"""Sleeps each page in 0.1 s slices (checking the flag between them), int(step*10) slices: a 0.25 s page lasts 0.2 s. Violates: "every page lasting `step` seconds". Blind review."""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if jobs.cancel_requested(self.request.id):
            jobs.set_state(self.request.id, "cancelled")
            return {"cancelled_after": current - 1, "students": total}
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        for _slice in range(int(step * 10)):
            if jobs.cancel_requested(self.request.id):
                jobs.set_state(self.request.id, "cancelled")
                return {"cancelled_after": current - 1, "students": total}
            time.sleep(0.1)  # this student's page
    return {"students": total}
