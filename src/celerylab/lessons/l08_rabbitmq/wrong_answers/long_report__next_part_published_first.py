"""Publishes the next part before crunching the current one (to keep the pipeline full), so after a SIGKILL the redelivered part publishes its successor again and every later part of the report runs twice. Violates: "the accepted cost of a crash is redoing the part that was running, not losing work nor redoing the report: at the same time, on a second, identical worker (on a virtual host of its own), it sends `ex.report("k", 6)` and, as soon as its second part is logged, kills that worker and its children with `SIGKILL` (the process manager starts it again); the parts logged for `"k"` cover its 6 s, and at most one part is logged twice.". Blind review.

Without a crash each part is published exactly once and runs once.
"""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

app.conf.worker_prefetch_multiplier = 1
PART = 1.0


# cost: a message per second of work
@app.task(name="ex.report", acks_late=True)
def report(label: str, seconds: float, part: int = 0, done: float = 0.0) -> None:
    s = min(PART, seconds - done)
    if done + s < seconds - 1e-9:
        report.delay(label, seconds, part + 1, done + s)  # queue the next part right away
    crunch(label, part, s)
