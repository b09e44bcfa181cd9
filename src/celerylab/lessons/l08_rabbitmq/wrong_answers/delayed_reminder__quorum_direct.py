"""A quorum queue on Celery's default direct exchange: native delayed delivery does not apply, the reminder waits in the worker and the channel closes. Violates: "3 s later, no message of `reminders` is held by the worker"."""
from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "reminders"
app.conf.task_queues = {
    "reminders": {"exchange": "reminders", "routing_key": "reminders", "queue_arguments": {"x-queue-type": "quorum"}},
}
