"""Makes `reminders` a quorum queue but on Celery's default direct exchange, where native delayed delivery is not supported: the countdown reminder is held in the worker as an ETA and brings the channel down with the 406 when the countdown exceeds consumer_timeout. Violates: "the worker receives the reminder only when it is due". Blind review."""
from kombu import Exchange, Queue

from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_queues = [
    Queue("reminders", Exchange("reminders", type="direct"), routing_key="reminders",
          queue_arguments={"x-queue-type": "quorum"}),  # quorum: Celery delays on the broker
]
app.conf.task_default_queue = "reminders"
app.conf.task_default_exchange = "reminders"
app.conf.task_default_routing_key = "reminders"
