"""Caches the flag for 0.2 s in the process's memory: with short pages a page begins after the request. Violates: "no page begins after the request, not even for a moment". Blind review.
"""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app

_cache = {}


def _requested(job_id):
    now = time.monotonic()
    hit = _cache.get(job_id)
    if hit and now - hit[0] < 0.2:
        return hit[1]
    value = jobs.cancel_requested(job_id)
    _cache[job_id] = (now, value)
    return value


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if _requested(self.request.id):
            jobs.set_state(self.request.id, "cancelled")
            return {"cancelled_after": current - 1, "students": total}
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    if jobs.cancel_requested(self.request.id):
        jobs.set_state(self.request.id, "cancelled")
        return {"cancelled_after": total, "students": total}
    return {"students": total}
