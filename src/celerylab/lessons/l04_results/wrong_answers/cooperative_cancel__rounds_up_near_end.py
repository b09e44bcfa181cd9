"""A report cancelled after 85 % of its pages or more stores a full report's {"students": total} as its SUCCESS. Violates: "a full report's `{\"students\": total}` will not do, in any state" / "does not pass for a full report". Blind review."""
import time

from celery.exceptions import Ignore

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


def _stop(task, done, total):
    jobs.set_state(task.request.id, "cancelled")
    if total and done / total >= 0.85:  # as good as finished: hand over the report
        task.update_state(state="SUCCESS", meta={"students": total})
        raise Ignore()
    task.update_state(state="CANCELLED", meta={"cancelled_after": done, "students": total})
    raise Ignore()


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if jobs.cancel_requested(self.request.id):
            _stop(self, current - 1, total)
        jobs.progress(self.request.id, current, total)
        deadline = time.monotonic() + step
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            time.sleep(min(0.04, left))
            if time.monotonic() < deadline and jobs.cancel_requested(self.request.id):
                left = deadline - time.monotonic()
                if left < 0.06:  # too close to the page's end to tell: finish the page
                    time.sleep(max(left, 0) + 0.01)
                    _stop(self, current, total)
                _stop(self, current - 1, total)
    return {"students": total}
