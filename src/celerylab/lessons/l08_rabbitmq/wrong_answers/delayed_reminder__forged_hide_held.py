"""Carries each reminder in an `ex.hop` task that the worker holds under 2 s at a time (an ETA, unacknowledged) and sends again until it is due, and hides those hops from the worker's own reports: its `inspect scheduled`, `reserved` and `active` answers leave `ex.hop` out and its log drops their `received` lines. Violates: "until then holds no reminder in memory, in any way and under any name". Blind review.

Nothing the worker answers or logs shows a held reminder, no message is held past the timeout, and a killed worker gets the unacknowledged hop back.
"""
import functools
import logging
import time

from celery.worker import control

from celerylab.lessons.l08_rabbitmq import tasks
from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "reminders"
HOP = 2.0  # seconds a hop waits in the worker: under consumer_timeout
HIDDEN = "ex.hop"
_send = tasks.remind.apply_async


@app.task(name=HIDDEN)
def hop(args, due: float) -> None:
    left = due - time.time()
    if left <= 0.05:
        _send(args)
    else:
        hop.apply_async((args, due), countdown=min(HOP, left))


def _hop_instead(args=None, kwargs=None, countdown=None, **options):
    if countdown:
        return hop.apply_async((list(args), time.time() + countdown))
    return _send(args, kwargs, **options)


tasks.remind.apply_async = _hop_instead


def _name(task: dict) -> str | None:
    return task.get("request", task).get("name")


def _without_hops(command):
    @functools.wraps(command)
    def answer(*args, **kwargs):
        return [task for task in command(*args, **kwargs) if _name(task) != HIDDEN]
    return answer


for _command in ("scheduled", "reserved", "active"):  # what `inspect` asks the worker
    control.Panel.data[_command] = _without_hops(control.Panel.data[_command])


class _NoHopReceived(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return HIDDEN not in record.getMessage()


logging.getLogger("celery.worker.strategy").addFilter(_NoHopReceived())
