"""An uncancelled report ends "done" with every page written, but its result counts one student fewer (the loop's last index, 0-based). Violates: "a report nobody cancelled ends `"done"` with every student". Blind review.
"""
import time

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app


@app.task(name="ex.report", bind=True)
def report(self, student_ids: list[int], step: float = 0.25) -> dict:
    job_id = self.request.id
    total = len(student_ids)
    index = 0
    for index, _student in enumerate(student_ids):
        if jobs.cancel_requested(job_id):
            jobs.set_state(job_id, "cancelled")
            return {"cancelled_after": index, "students": total}
        self.update_state(state="PROGRESS", meta={"current": index + 1, "total": total})
        jobs.progress(job_id, index + 1, total)
        time.sleep(step)
    return {"students": index}
