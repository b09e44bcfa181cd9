"""Same plain chain as no_dedupe, with 0.15 s of bookkeeping after publishing the next part (before the ack): widens the publish-then-ack window so the kill lands in it. Violates: "the parts logged for `"w"` cover its 6 s, and at most one part is logged twice". Blind review.
"""
import time

from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.5
# Cost: more messages per report, and a crash redoes the running part.


@app.task(bind=True, name="ex.report", acks_late=True, reject_on_worker_lost=True)
def report(self, label: str, seconds: float, part: int = 0) -> None:
    size = min(PART, seconds - part * PART)
    crunch(label, part, size)
    if (part + 1) * PART < seconds - 1e-9:
        report.apply_async((label, seconds), {"part": part + 1})
    time.sleep(0.15)  # bookkeeping (metrics flush) after the hand-off
