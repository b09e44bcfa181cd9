"""On cancel, rewrites the row's progress to one page below the last completed one (0 on an early cancel), so the row no longer shows the page the report was on when the request arrived. Violates: "its progress stays at the page it was on when the request arrived: no page begins after the request, also once the task has ended (it stopped before the end);". Blind review.
"""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    done_pages = 0
    for current, _student in enumerate(student_ids, 1):
        if jobs.cancel_requested(self.request.id):
            jobs.progress(self.request.id, max(done_pages - 1, 0), total)  # the last page never completed
            jobs.set_state(self.request.id, "cancelled")
            return {"students": done_pages, "cancelled": True}
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
        done_pages = current
    return {"students": total}
