"""Where a message goes when the task's decorator names one queue and `task_routes` another: published, never run."""
from celery import Celery
from celery.signals import before_task_publish

ROUTES = {"email.send_bulk": {"queue": "priority"}}  # the app module's task_routes


def decorator_routes() -> dict[str, str]:
    """The queue (routing key) each way of sending `email.send_bulk` publishes to, with the notes' decorator."""
    app = Celery("l06-decorator", broker="memory://", set_as_current=False)
    producer = Celery("l06-producer", broker="memory://", set_as_current=False)  # the same routes, not the task's code
    for each in (app, producer):
        each.conf.update(task_default_queue="default", task_routes=ROUTES)

    @app.task(name="email.send_bulk", queue="heavy")  # the notes' `@celery.task(..., queue="pesada")`
    def send_bulk() -> None:
        """Never runs: only its message's destination matters."""

    sent: list[str] = []

    def keep(routing_key=None, **_):
        sent.append(routing_key)

    before_task_publish.connect(keep, weak=False)
    try:
        send_bulk.delay()  # the task object: its decorator's options come along
        app.send_task("email.send_bulk")  # by name, in the app that registered the task
        producer.send_task("email.send_bulk")  # by name, from a producer without the task's code (another service)
        send_bulk.apply_async(queue="default")  # an explicit queue= at the call
    finally:
        before_task_publish.disconnect(keep)
        app.close()
        producer.close()
    return dict(zip(("delay", "send_task_same_app", "send_task_other_producer", "apply_async_queue"), sent))
