"""Sends each reminder from a `threading.Timer` in the process that runs `l08.remind_later`, when it is due: the reminder lives only in that process's memory and is lost when the worker restarts before it is due. Violates: "the reminder runs exactly once, and not before its 4 s;". Blind review.

Nothing is published before it is due, so the worker neither receives nor lists a reminder early.
"""
import threading

from celerylab.lessons.l08_rabbitmq import tasks
from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "reminders"
_send = tasks.remind.apply_async


def _send_when_due(args=None, kwargs=None, countdown=None, **options):
    if countdown:
        threading.Timer(countdown, _send, (args, kwargs), options).start()
        return None
    return _send(args, kwargs, **options)


tasks.remind.apply_async = _send_when_due
