"""Splits each report into parts of at most 0.5 s, each rounded to a tenth of a second, so a length that is no multiple of 0.1 s gets parts adding up to something else (2.25 s: 2.3 s of parts; 0.05 s: 0.1 s). Violates: "for each report, the parts logged add up to its seconds, and no part number is logged twice;". Blind review.

Every length the example and the first grading inputs use is a whole number of tenths, where the rounding is exact.
"""
from celery import chain

from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.5
# cost: one message and one result write per part of work


@app.task(name="ex.report_part", acks_late=True, reject_on_worker_lost=True)
def report_part(label: str, part: int, seconds: float) -> None:
    crunch(label, part, seconds)


@app.task(name="ex.report")
def report(label: str, seconds: float) -> None:
    steps, done = [], 0.0
    while done < seconds - 1e-9:
        step = round(min(PART, seconds - done), 1)  # tenths: tidy part lengths in the log
        if step <= 0:
            break
        steps.append(report_part.si(label, len(steps), step))
        done = round(done + step, 1)
    chain(steps).apply_async()
