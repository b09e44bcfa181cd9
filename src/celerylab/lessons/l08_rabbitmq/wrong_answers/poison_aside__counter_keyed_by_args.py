"""Counts deliveries in the broker, shared by every machine, but per task name and arguments instead of per message, and re-publishes a message to work.poison once its count passes 3: a second poison message with the same arguments finds the first one's count and is set aside before it has run 3 times. Violates: "a task that kills its process runs **3 times** and then its message waits in queue `work.poison`". Blind review.

The count survives any worker's death and is seen from every machine, since it lives in RabbitMQ.
"""
import hashlib

from celery.signals import task_received
from celery.worker import state
from kombu import Queue

from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "work"
app.conf.task_acks_late = True
app.conf.task_reject_on_worker_lost = True

MAX_STARTS = 3


def _deliveries(key: str) -> int:
    """Add one delivery to the count of `key` (a queue of marks in the broker) and return the new count."""
    with app.connection_for_write() as connection:
        channel = connection.default_channel
        name = f"ex.poison.count.{key}"
        _, before, _ = Queue(name, durable=True, auto_delete=False, channel=channel).queue_declare()
        channel.basic_publish(channel.prepare_message(b"1"), exchange="", routing_key=name)
        return before + 1


@task_received.connect
def _set_poison_aside(request=None, **kwargs):
    key = hashlib.sha1(f"{request.name}{request.args!r}{request.kwargs!r}".encode()).hexdigest()[:16]
    if _deliveries(key) > MAX_STARTS:
        app.send_task(request.name, request.args, request.kwargs, task_id=request.id,
                      exchange="work.poison", routing_key="work.poison")
        state.revoked.add(request.id)  # the worker acknowledges it and skips it
