"""Looks at the flag before every 5th page only (to spare the database), and every 50 ms inside pages: with pages too short for a look inside them, the page after the request begins. Violates: "no page begins after the request, not even for a moment". Blind review.
"""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app

EVERY = 5


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    job_id, total = self.request.id, len(student_ids)

    def stop(pages):
        jobs.set_state(job_id, "cancelled")
        return {"cancelled_after": pages, "students": total}

    for current, _student in enumerate(student_ids, 1):
        if (current - 1) % EVERY == 0 and jobs.cancel_requested(job_id):
            return stop(current - 1)
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(job_id, current, total)
        deadline = time.monotonic() + step
        while (left := deadline - time.monotonic()) > 0:
            time.sleep(min(0.05, left))
            if time.monotonic() < deadline and jobs.cancel_requested(job_id):
                if deadline - time.monotonic() <= 0.1:  # nearly over: finish the page and count it
                    time.sleep(max(0.0, deadline - time.monotonic()))
                    return stop(current)
                return stop(current - 1)
    if jobs.cancel_requested(job_id):
        return stop(total)
    return {"students": total}
