"""Chains 0.5 s parts with `acks_late=True` but without `reject_on_worker_lost=True`: it survives the ack timeout and a whole worker killed mid-part, but when only the pool process running a part dies (SIGKILL to the child, as the OOM killer does), Celery acknowledges the part's message and marks it failed (WorkerLostError) instead of returning it to the queue, and the rest of the chain never runs. Violates: "the same holds when only the process running a part dies (the worker's pool process, as when the system's OOM killer kills it): once `"k"` is over, on that same worker, it sends `ex.report("j", 6)` and, as soon as its second part is logged, kills only the worker's pool process with `SIGKILL` (the worker stays up and starts another); the parts logged for `"j"` cover its 6 s, and at most one part is logged twice.". Blind review."""
from celery import chain

from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.5  # seconds of work per message: far below the 3 s timeout, with the prefetched parts waiting behind it
# Cost: a crash redoes the part that was running; one message and one result write per part.


@app.task(name="ex.report_part", acks_late=True)
def report_part(label: str, part: int, seconds: float) -> None:
    crunch(label, part, seconds)


@app.task(name="ex.report")
def report(label: str, seconds: float) -> None:
    steps, done = [], 0.0
    while done < seconds:
        step = min(PART, seconds - done)
        steps.append(report_part.si(label, len(steps), step))
        done += step
    chain(steps).apply_async()
