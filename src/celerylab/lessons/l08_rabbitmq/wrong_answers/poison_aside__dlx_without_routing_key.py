"""Names the dead-letter exchange but not the dead-letter routing key, so the message is dead-lettered with its original key "work", which the direct exchange work.poison does not route anywhere, and it vanishes. Violates: "the poison message waits in `work.poison`;". Blind review.

Runs exactly 3 times as asked; the set-aside step silently drops the message.
"""
from kombu import Queue

from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "work"
app.conf.task_acks_late = True
app.conf.task_reject_on_worker_lost = True
app.conf.task_queues = [Queue("work", routing_key="work", queue_arguments={
    "x-queue-type": "quorum",
    "x-delivery-limit": 2,
    "x-dead-letter-exchange": "work.poison",
})]
