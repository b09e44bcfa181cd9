"""Adds soft_time_limit=30 "so a stuck report cannot hog the only process": a 130-student report at 0.25 s a page is cut short at 30 s and ends "cancelled" before anyone asked (the request comes at page 127, 31.75 s in). Violates: "a report nobody cancelled ends `"done"` with every student". Blind review."""
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
                return {"cancelled_after": current - 1, "students": total}
            self.update_state(state="PROGRESS", meta={"current": current, "total": total})
            jobs.progress(self.request.id, current, total)
            time.sleep(step)  # this student's page
        if jobs.cancel_requested(self.request.id):  # a request during the last page
            jobs.set_state(self.request.id, "cancelled")
            return {"cancelled_after": total, "students": total}
    except SoftTimeLimitExceeded:
        jobs.set_state(self.request.id, "cancelled")  # too long: give the process back
        return {"cancelled_after": current - 1, "students": total}
    return {"students": total}
