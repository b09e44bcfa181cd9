"""Rounds what is left of a report to a tenth of a second "to avoid float noise": a 2.25 s report logs 2.2 s, a 0.05 s one logs 0.1 s.

Violates: "`seconds` may be any positive duration, fractions included"

Blind review.
"""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.4

# Cost: a report becomes many messages and finishes later; a crash redoes the running part.


@app.task(name="ex.report", acks_late=True)
def report(label: str, seconds: float, part: int = 0) -> None:
    remaining = round(seconds - part * PART, 1)
    if remaining <= 0:
        return
    crunch(label, part, min(PART, remaining))
    if remaining > PART:
        report.apply_async((label, seconds, part + 1))
