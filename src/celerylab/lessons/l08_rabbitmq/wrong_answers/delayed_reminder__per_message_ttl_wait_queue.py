"""Parks each reminder in a classic wait queue with a per-message TTL of its countdown, dead-lettered into `reminders`: a classic queue lets an expired message go only from its head, so a reminder sent right after a longer one waits until that one is due. Violates: "the reminder runs exactly once, and not before its 4 s;". Blind review.

With one reminder at a time, it is received when due and nothing waits in the worker.
"""
from kombu import Exchange, Queue

from celerylab.lessons.l08_rabbitmq import tasks
from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "reminders"
app.conf.task_queues = [
    Queue("reminders", Exchange("reminders", type="direct"), routing_key="reminders"),
    Queue("reminders.wait", Exchange("reminders.wait", type="direct"), routing_key="reminders.wait",
          queue_arguments={"x-dead-letter-exchange": "reminders", "x-dead-letter-routing-key": "reminders"}),
]


_send = tasks.remind.apply_async


def _wait_on_the_broker(args=None, kwargs=None, countdown=None, **options):
    if countdown:  # per-message TTL: the message leaves the wait queue for `reminders` when it is due
        return _send(args, kwargs, countdown=countdown, queue="reminders.wait", expiration=countdown, **options)
    return _send(args, kwargs, **options)


tasks.remind.apply_async = _wait_on_the_broker
