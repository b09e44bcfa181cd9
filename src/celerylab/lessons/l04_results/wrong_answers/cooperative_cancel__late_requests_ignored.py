"""Honours a cancel request only while the report is at most three quarters done ("close to the end, finishing is cheaper"): a report cancelled halfway, as in the check, ends "cancelled", but a request that arrives later is ignored and the report ends "done" with every student. Violates: "Make `ex.report` (one page per student, `step` seconds each) honour that request". Blind review."""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app

STILL_WORTH_STOPPING = 0.75


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    total = len(student_ids)
    for current, _student in enumerate(student_ids, 1):
        if current <= total * STILL_WORTH_STOPPING and jobs.cancel_requested(self.request.id):
            jobs.set_state(self.request.id, "cancelled")
            return {"cancelled_after": current - 1, "students": total}
        self.update_state(state="PROGRESS", meta={"current": current, "total": total})
        jobs.progress(self.request.id, current, total)
        time.sleep(step)  # this student's page
    return {"students": total}
