"""Splits a report into 0.5 s parts only when it is longer than the 3 s timeout and runs a shorter one whole, as one late-acknowledged message: several reports just under the timeout sent together each wait prefetched behind another one, held past the timeout. Violates: "it must do `seconds` seconds of work by calling `crunch(label, part, s)` from `tasks` (each call does `s` seconds of part number `part`'s work and logs it when done), without ever holding a message longer than the timeout.". Blind review.

A report under the timeout seems safe to run in one go: it ends before the timeout, on its own.
"""
from celery import chain

from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

TIMEOUT = 3.0  # the node's consumer_timeout, in seconds
PART = 0.5
# cost: a long report becomes many messages, one result write per part


@app.task(name="ex.report_part", acks_late=True, reject_on_worker_lost=True)
def report_part(label: str, part: int, seconds: float) -> None:
    crunch(label, part, seconds)


@app.task(name="ex.report")
def report(label: str, seconds: float) -> None:
    if seconds <= TIMEOUT:  # it fits under the timeout: one message
        report_part.delay(label, 0, seconds)
        return
    steps, done = [], 0.0
    while done < seconds:
        step = min(PART, seconds - done)
        steps.append(report_part.si(label, len(steps), step))
        done += step
    chain(steps).apply_async()
