"""Remembers the parts it finished in a file under /tmp, its progress in the messages: a part done and not yet acknowledged when its worker dies is redelivered to a worker on another machine (its own /tmp), which runs it again and publishes the rest of the report a second time. Violates: "the accepted cost of a crash is redoing the part that was running, not losing work nor redoing the report". Blind review."""
import os

from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

# Cost: one message and one marker file per 0.5 s part; a crash redoes the running part.
STEP = 0.5
MARKS = "/tmp/ex_report_done"


@app.task(name="ex.report", bind=True, acks_late=True, reject_on_worker_lost=True)
def report(self, label: str, seconds: float, part: int = 0) -> None:
    start = part * STEP
    if seconds - start <= 1e-9:
        return
    os.makedirs(MARKS, exist_ok=True)
    mark = os.path.join(MARKS, self.request.id)
    if os.path.exists(mark):
        return
    crunch(label, part, min(STEP, seconds - start))
    open(mark, "w").close()
    if seconds - (start + STEP) > 1e-9:
        report.apply_async((label, seconds), {"part": part + 1})
