"""Plain continuation chain: crunch, publish the next part, then ack; a kill after the publish and before the ack leaves two chains (every later part twice). Violates: "the parts logged for `"w"` cover its 6 s, and at most one part is logged twice". Blind review.
"""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.5
# Cost: more messages per report, and a crash redoes the running part.


@app.task(bind=True, name="ex.report", acks_late=True, reject_on_worker_lost=True)
def report(self, label: str, seconds: float, part: int = 0) -> None:
    size = min(PART, seconds - part * PART)
    crunch(label, part, size)
    if (part + 1) * PART < seconds - 1e-9:
        report.apply_async((label, seconds), {"part": part + 1})
