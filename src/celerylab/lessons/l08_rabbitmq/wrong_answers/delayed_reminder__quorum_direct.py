"""A quorum queue on Celery's default direct exchange: native delayed delivery does not apply, the reminder waits in the worker and the channel closes. Violates: "the worker receives the reminder only when it is due (its log's `Task l08.remind[…] received` line comes no earlier), and until then holds no reminder in memory, in any way: asked again and again from 1 s after it is scheduled, `inspect scheduled`, `inspect reserved` and `inspect active` list no `l08.remind`;"."""
from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "reminders"
app.conf.task_queues = {
    "reminders": {"exchange": "reminders", "routing_key": "reminders", "queue_arguments": {"x-queue-type": "quorum"}},
}
