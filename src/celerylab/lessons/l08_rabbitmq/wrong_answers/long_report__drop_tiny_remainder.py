"""Leaves out a remainder shorter than 0.1 ms after its parts (read as float noise): a report of 2.000003 s logs 2 s. Violates: "for each report, the parts logged add up to its seconds". Blind review.
"""
from celery import chain

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
    steps, done = [], 0.0
    while seconds - done >= 0.0001:  # a remainder under 0.1 ms is float noise
        step = min(PART, seconds - done)
        steps.append(report_part.si(label, len(steps), step, self.request.id))
        done += step
    chain(steps).apply_async()
