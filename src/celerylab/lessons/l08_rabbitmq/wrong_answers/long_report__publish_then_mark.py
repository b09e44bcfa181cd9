"""Publishes the next part, then marks its own message done (by message id): a crash between the publish and the mark runs the part again and publishes a second continuation, which runs the rest of the report twice. Violates: "for each, the parts logged cover its seconds, and at most one part is logged twice". Blind review.
"""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.5
# Cost: one message and one "done" mark per part; a crash redoes the part that was running.


@app.task(bind=True, name="ex.report_part", acks_late=True, reject_on_worker_lost=True)
def report_part(self, label: str, part: int, seconds: float) -> None:
    key = f"ex.report:{self.request.id}:done"
    if app.backend.get(key) is not None:
        return  # this very message ran already
    crunch(label, part, min(PART, seconds - part * PART))
    if (part + 1) * PART < seconds - 1e-12:
        report_part.delay(label, part + 1, seconds)
    app.backend.set(key, "1")


@app.task(name="ex.report", acks_late=True, reject_on_worker_lost=True)
def report(label: str, seconds: float) -> None:
    report_part.delay(label, 0, seconds)
