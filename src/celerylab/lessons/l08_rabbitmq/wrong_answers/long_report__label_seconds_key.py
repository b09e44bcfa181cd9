"""Marks a report's parts done under its label and seconds: the same report sent again after the first one finished finds every part marked done and does no work. Violates: "the same report, sent again after it ended, runs whole again". Blind review.
"""
from celery import chain

from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.5  # seconds of work per message, far below the 3 s timeout
# Cost: one message, one result write and one "done" mark per part; a crash redoes the part that was running.


def done_key(label: str, seconds: float, part: int) -> str:
    return f"ex.report:{label}:{seconds}:{part}:done"


@app.task(name="ex.report_part", acks_late=True, reject_on_worker_lost=True)
def report_part(label: str, part: int, step: float, seconds: float) -> None:
    if app.backend.get(done_key(label, seconds, part)) is not None:
        return
    crunch(label, part, step)
    app.backend.set(done_key(label, seconds, part), "1")


@app.task(name="ex.report")
def report(label: str, seconds: float) -> None:
    steps, done = [], 0.0
    while done < seconds:
        step = min(PART, seconds - done)
        steps.append(report_part.si(label, len(steps), step, seconds))
        done += step
    chain(steps).apply_async()
