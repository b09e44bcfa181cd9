"""A topic exchange on a classic queue: without a quorum queue Celery does not use native delayed delivery, the worker holds the reminder. Violates: "3 s later, the worker holds no reminder in memory (`inspect scheduled` lists none)"."""
from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "reminders"
app.conf.task_queues = {
    "reminders": {"exchange": "reminders", "exchange_type": "topic", "routing_key": "reminders"},
}
