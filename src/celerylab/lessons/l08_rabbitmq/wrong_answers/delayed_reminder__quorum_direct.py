"""A quorum queue on Celery's default direct exchange: native delayed delivery does not apply, the reminder waits in the worker and the channel closes. Violates: "3 s later, the worker holds no reminder in memory (`inspect scheduled` lists none)"."""
from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "reminders"
app.conf.task_queues = {
    "reminders": {"exchange": "reminders", "routing_key": "reminders", "queue_arguments": {"x-queue-type": "quorum"}},
}
