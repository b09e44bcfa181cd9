"""On cancel, sets the row's progress to total/total to "close" the progress bar before marking it cancelled, so a cancelled report ends with progress equal to the total. Violates: "its progress stays at the page it was on when the request arrived: no page begins after the request, also once the task has ended (it stopped before the end);". Blind review.

While the task runs the progress is below the total; only the final row is
wrong, which is why the statement says "also once the task has ended".

Blind review.
"""
import time

from celery.exceptions import Ignore

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if jobs.cancel_requested(self.request.id):
            jobs.progress(self.request.id, total, total)  # close the bar for the UI
            jobs.set_state(self.request.id, "cancelled")
            raise Ignore()
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    return {"students": total}
