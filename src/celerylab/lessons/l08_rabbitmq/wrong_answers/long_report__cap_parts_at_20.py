"""Caps a report at 20 parts: past 20 x 0.4 s the parts grow (a 300 s report: 15 s parts) and outlive the timeout.

Violates: "`seconds` may be any positive duration, fractions included"

Blind review.
"""
import math

from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.4
MAX_PARTS = 20  # don't flood the broker with messages

# Cost: a report becomes up to 20 messages and finishes later; a crash redoes the running part.


@app.task(name="ex.report", acks_late=True)
def report(label: str, seconds: float, part: int = 0, parts: int | None = None) -> None:
    if parts is None:
        parts = min(MAX_PARTS, max(1, math.ceil(seconds / PART)))
    crunch(label, part, seconds / parts)
    if part + 1 < parts:
        report.apply_async((label, seconds, part + 1, parts))
