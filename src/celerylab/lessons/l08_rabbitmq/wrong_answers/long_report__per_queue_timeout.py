"""Declares the default queue with `x-consumer-timeout` of 60 s: RabbitMQ 3.10.8 ignores the argument, the channel closes at the server's 3 s. Violates: "the worker never logs the ack timeout (`PRECONDITION_FAILED - delivery acknowledgement`, in any form: unrecoverable error or reconnection);"."""
from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

app.conf.task_queues = {"celery": {"exchange": "celery", "routing_key": "celery",
                                   "queue_arguments": {"x-consumer-timeout": 60000}}}


@app.task(name="ex.report", acks_late=True)
def report(label: str, seconds: float) -> None:
    crunch(label, 0, seconds)
