"""Splits each report into parts of 0.5 s but never into more than 20 parts, so a report longer than 60 s gets parts longer than the 3 s timeout (a 300 s report: 20 parts of 15 s). Violates: "it must do `seconds` seconds of work by calling `crunch(label, part, s)` from `tasks` (each call does `s` seconds of part number `part`'s work and logs it when done), without ever holding a message longer than the timeout.". Blind review.

Twenty messages per report at most keeps the queue short; every report the example sends fits.
"""
import math

from celery import chain

from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.5
MAX_PARTS = 20  # a bound on the messages one report may queue
# cost: up to twenty messages per report, and a crash redoes the running part


@app.task(name="ex.report_part", acks_late=True, reject_on_worker_lost=True)
def report_part(label: str, part: int, seconds: float) -> None:
    crunch(label, part, seconds)


@app.task(name="ex.report")
def report(label: str, seconds: float) -> None:
    count = min(MAX_PARTS, max(1, math.ceil(seconds / PART - 1e-9)))
    step = seconds / count
    chain(report_part.si(label, number, step) for number in range(count)).apply_async()
