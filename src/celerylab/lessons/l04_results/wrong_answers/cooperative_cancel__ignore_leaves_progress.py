"""Stops inside a page with raise Ignore() and no result, leaving PROGRESS at the unfinished page, whose number is not the pages done. Violates: "is a dict whose `cancelled_after` is the number of pages it did (... or the one before, if it stopped inside it ...)". Blind review."""
import time

from celery.exceptions import Ignore

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if jobs.cancel_requested(self.request.id):
            jobs.set_state(self.request.id, "cancelled")
            raise Ignore()
        jobs.progress(self.request.id, current, total)
        deadline = time.monotonic() + step
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            time.sleep(min(0.04, left))
            if time.monotonic() < deadline and jobs.cancel_requested(self.request.id):
                jobs.set_state(self.request.id, "cancelled")
                raise Ignore()
    return {"students": total}
