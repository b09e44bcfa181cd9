"""Runs the first part in the report's own task and, when that message comes back after a crash, reads the run log: a first part already logged is taken for a report already handed on, so a crash after the first part and before the rest is sent loses the rest. Violates: "the accepted cost of a crash is redoing the part that was running, not losing work nor redoing the report". Blind review.
"""
import os

from celery import chain

from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.5  # seconds of work per message, far below the 3 s timeout
# Cost: one message, one result write and one "done" mark per part; a crash redoes the part that was running.


def done_key(run: str, part: int) -> str:
    return f"ex.report:{run}:{part}:done"


def first_part_logged(label: str) -> bool:
    with open(os.environ["CELERYLAB_RUNS"], encoding="utf-8") as runs:
        return any(line.split()[:2] == [f"{label}:part", "0"] for line in runs)


@app.task(name="ex.report_part", acks_late=True, reject_on_worker_lost=True)
def report_part(label: str, part: int, seconds: float, run: str) -> None:
    if app.backend.get(done_key(run, part)) is not None:
        return
    crunch(label, part, seconds)
    app.backend.set(done_key(run, part), "1")


@app.task(name="ex.report", bind=True, acks_late=True, reject_on_worker_lost=True)
def report(self, label: str, seconds: float) -> None:
    if (self.request.delivery_info or {}).get("redelivered") and first_part_logged(label):
        return  # this report already ran its first part and sent the rest
    first = min(PART, seconds)
    crunch(label, 0, first)
    steps, done = [], first
    while done < seconds:
        step = min(PART, seconds - done)
        steps.append(report_part.si(label, len(steps) + 1, step, self.request.id))
        done += step
    if steps:
        chain(steps).apply_async()
