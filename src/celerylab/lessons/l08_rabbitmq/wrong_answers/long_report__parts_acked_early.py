"""Splits the report in 1 s parts acknowledged when they start (acks_late off): it survives the ack timeout, but a worker killed mid-part loses that part and the chain stops. Violates: "the parts logged for `"k"` cover its 6 s, and at most one part is logged twice"."""
from celery import chain

from celerylab.lessons.l08_rabbitmq.tasks import app, crunch


@app.task(name="ex.report_part", acks_late=False)
def report_part(label: str, part: int, seconds: float) -> None:
    crunch(label, part, seconds)


@app.task(name="ex.report")
def report(label: str, seconds: float) -> None:
    steps, done = [], 0.0
    while done < seconds:
        step = min(1.0, seconds - done)
        steps.append(report_part.si(label, len(steps), step))
        done += step
    chain(steps).apply_async()
