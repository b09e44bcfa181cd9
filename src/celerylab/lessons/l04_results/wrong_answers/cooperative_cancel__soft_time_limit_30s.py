"""Adds soft_time_limit=30 "so a stuck report cannot hog the only process": an uncancelled 120-student report at 0.27 s a page (32.4 s) is cut short and ends "cancelled", not "done". Violates: "a report nobody cancelled ends `"done"` with every student". Blind review."""
from celery.exceptions import SoftTimeLimitExceeded

import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


@app.task(name="ex.report", bind=True, soft_time_limit=30)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    try:
        for current, _student in enumerate(student_ids, 1):
            if jobs.cancel_requested(self.request.id):
                jobs.set_state(self.request.id, "cancelled")
                return {"students": current - 1, "cancelled": True}
            self.update_state(state="PROGRESS", meta={"current": current, "total": total})
            jobs.progress(self.request.id, current, total)
            time.sleep(step)  # this student's page
    except SoftTimeLimitExceeded:
        jobs.set_state(self.request.id, "cancelled")  # too long: give the process back
        return {"students": current - 1, "cancelled": True}
    return {"students": total}
