"""Runs a report shorter than the timeout in one acks_late go, splitting only longer ones: four prefetched 2.9 s reports wait up to 8.7 s unacknowledged.

Violates: "without ever holding a message longer than the timeout"

Blind review.
"""
import math

from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

TIMEOUT = 3.0  # the node's consumer_timeout
PART = 0.4

# Cost: long reports become many messages and finish later; a crash redoes the running part.


@app.task(name="ex.report", acks_late=True)
def report(label: str, seconds: float, part: int = 0, parts: int | None = None) -> None:
    if seconds < TIMEOUT and parts is None:  # short enough: no need to split
        crunch(label, 0, seconds)
        return
    if parts is None:
        parts = max(1, math.ceil(seconds / PART))
    crunch(label, part, seconds / parts)
    if part + 1 < parts:
        report.apply_async((label, seconds, part + 1, parts))
