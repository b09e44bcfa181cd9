"""Runs the whole report in one acks_late task and sets `broker_channel_error_retry=True`: when RabbitMQ closes the channel for the late ack the worker only warns "Connection to broker lost" and reconnects, so no process manager restarts it, but the ack timeout still happens and the report runs again. Violates: "the worker never logs the ack timeout (`PRECONDITION_FAILED - delivery acknowledgement`, in any form: unrecoverable error or reconnection);"."""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

app.conf.broker_channel_error_retry = True


# cost: nothing split; a crash redoes the whole report
@app.task(name="ex.report", acks_late=True)
def report(label: str, seconds: float) -> None:
    crunch(label, 0, seconds)
