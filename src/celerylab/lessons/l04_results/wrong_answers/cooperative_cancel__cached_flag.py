"""Reads the cancel flag once and keeps the answer for a second before asking the database again, so a cancel requested during a page is seen only when the cached answer is a second old: the report goes on to the next pages, and the row turns cancelled just inside 1 s or just past it, depending on the step and the moment. Violates: "its progress stays at the page it was on when the request arrived: no page begins after the request, also once the task has ended (it stopped before the end);". Blind review.

Sparing the database one query per page looks harmless with 1 s to spare;
it is the pages begun after the request that give it away.
"""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app

FLAG_TTL = 1.0  # seconds a read of the flag is trusted


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    cancelled, read_at = False, None
    for current, _student in enumerate(student_ids, 1):
        if read_at is None or time.monotonic() - read_at >= FLAG_TTL:
            cancelled, read_at = jobs.cancel_requested(self.request.id), time.monotonic()
        if cancelled:
            jobs.set_state(self.request.id, "cancelled")
            return {"cancelled_after": current - 1, "students": total}
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    return {"students": total}
