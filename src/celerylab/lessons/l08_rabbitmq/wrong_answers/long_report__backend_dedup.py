"""Each part records its own state in the result backend once its work is done, then sends the next part; a redelivered part whose state says done returns: a crash between the two never sends the rest. Violates: "for each, the parts logged cover its seconds, and at most one part is logged twice". Blind review.
"""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.5
# Cost: one message and one state write in the result backend per part; a crash redoes the part that was running.


@app.task(bind=True, name="ex.report_part", acks_late=True, reject_on_worker_lost=True)
def report_part(self, label: str, part: int, seconds: float) -> None:
    if app.AsyncResult(self.request.id).state in ("WORKED", "SUCCESS"):
        return  # this message's work is done (its result stored, or its work at least)
    crunch(label, part, min(PART, seconds - part * PART))
    self.update_state(state="WORKED")
    if (part + 1) * PART < seconds - 1e-12:
        report_part.delay(label, part + 1, seconds)


@app.task(name="ex.report", acks_late=True, reject_on_worker_lost=True)
def report(label: str, seconds: float) -> None:
    report_part.delay(label, 0, seconds)
