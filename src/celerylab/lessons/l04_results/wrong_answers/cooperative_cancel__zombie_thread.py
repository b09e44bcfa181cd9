"""On cancel, marks the row and frees the pool, but hands the remaining pages to a background thread that keeps rendering them silently (no progress written). Violates: "the task stops before the end" / "honour that request". Blind review."""
import threading
import time

from celery.exceptions import Ignore

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


def _finish_quietly(pages, step):
    for _ in range(pages):
        time.sleep(step)  # the rest of the report is still rendered, off the books


def _stop(task, done, total, step=0.0):
    threading.Thread(target=_finish_quietly, args=(total - done, step), daemon=True).start()
    jobs.set_state(task.request.id, "cancelled")
    task.update_state(state="CANCELLED", meta={"cancelled_after": done, "students": total})
    raise Ignore()


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if jobs.cancel_requested(self.request.id):
            _stop(self, current - 1, total, step)
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
                    _stop(self, current, total, step)
                _stop(self, current - 1, total, step)
    return {"students": total}
