"""Looks before each page and every 50 ms inside it, but not once more after the last page: a request on the last page when `step` is at most 0.05 s (no look fits inside the page) is missed and the report ends done. Violates: "during its last page too: the task has not ended yet, and looks at the flag once more before it returns". Blind review.
"""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app

LOOK = 0.05    # seconds between two looks at the flag inside a page
FINISH = 0.1   # a page with less than this left when the flag is seen is finished (no borderline count)


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    job_id = self.request.id
    total = len(student_ids)

    def stop(pages: int) -> dict:
        jobs.set_state(job_id, "cancelled")
        return {"cancelled_after": pages, "students": total}

    for current, _student in enumerate(student_ids, 1):
        if jobs.cancel_requested(job_id):
            return stop(current - 1)  # this page never began: the previous ones were done
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(job_id, current, total)
        deadline = time.monotonic() + step
        while (left := deadline - time.monotonic()) > 0:
            time.sleep(min(LOOK, left))  # this student's page, a slice at a time
            if time.monotonic() < deadline and jobs.cancel_requested(job_id):
                left = deadline - time.monotonic()  # measured after the look
                if left > FINISH:
                    return stop(current - 1)  # stopped well inside the page: it was not done
                time.sleep(max(0.0, left))
                return stop(current)  # the page was nearly over: finish it and count it
    return {"students": total}
