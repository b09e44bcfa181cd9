"""Publishes every part at once as a group, under a run named afresh each time ex.report runs: a crash after the group is sent and before ex.report's ack sends every part again. Violates: "the parts of both reports, every line counted, add up to exactly their 3 s (nothing lost, nothing redone)". Blind review.
"""
import uuid

from celery import group

from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.5  # seconds of work per message: far below the 3 s timeout, with the prefetched parts waiting behind it
# Cost: a crash redoes the part that was running (acks_late: its message goes back to the queue, and only that part
# runs again; reject_on_worker_lost: also when only the pool process running it dies, as the OOM killer does); one
# message, one result write and one "done" mark in the result backend per part (a crash after a part published the
# next and before its ack runs it again, and publishes the rest of the chain twice: the mark makes the copies skip
# their work), and the work must be able to resume from any part.


def done_key(run: str, part: int) -> str:
    return f"ex.report:{run}:{part}:done"


@app.task(name="ex.report_part", acks_late=True, reject_on_worker_lost=True)
def report_part(label: str, part: int, seconds: float, run: str) -> None:
    if app.backend.get(done_key(run, part)) is not None:
        return  # a copy of a part already done: its chain goes on, its work is not done again
    crunch(label, part, seconds)
    app.backend.set(done_key(run, part), "1")


@app.task(name="ex.report", bind=True, acks_late=True, reject_on_worker_lost=True)
def report(self, label: str, seconds: float) -> None:
    # its own message acked once the chain is sent: a crash before loses nothing; one after sends the chain again,
    # with the same run (a redelivered message keeps its id), and the done marks make the copies skip their work
    run = uuid.uuid4().hex  # a new run each time the message runs
    steps, done = [], 0.0
    while done < seconds:
        step = min(PART, seconds - done)
        steps.append(report_part.si(label, len(steps), step, run))
        done += step
    group(steps).apply_async()  # every part at once
