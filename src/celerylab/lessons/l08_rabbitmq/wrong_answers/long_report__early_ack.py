"""Acknowledges the report when it starts (acks_late off): the first report survives, the second one waits unacknowledged behind it and the channel closes. Violates: "the worker never logs the ack timeout (`PRECONDITION_FAILED - delivery acknowledgement`, in any form: unrecoverable error or reconnection);"."""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch


@app.task(name="ex.report", acks_late=False)
def report(label: str, seconds: float) -> None:
    crunch(label, 0, seconds)
