"""Splits the report in two halves whatever its length: a 4 s report's half waits 2 s behind the other report's half and then runs 2 s, held 4 s unacknowledged, and a long report's halves alone outlast the 3 s timeout. Violates: "the worker never logs the ack timeout (`PRECONDITION_FAILED - delivery acknowledgement`, in any form: unrecoverable error or reconnection);"."""
from celery import chain

from celerylab.lessons.l08_rabbitmq.tasks import app, crunch


@app.task(name="ex.report_part", acks_late=True)
def report_part(label: str, part: int, seconds: float) -> None:
    crunch(label, part, seconds)


@app.task(name="ex.report")
def report(label: str, seconds: float) -> None:
    chain(report_part.si(label, 0, seconds / 2), report_part.si(label, 1, seconds / 2)).apply_async()
