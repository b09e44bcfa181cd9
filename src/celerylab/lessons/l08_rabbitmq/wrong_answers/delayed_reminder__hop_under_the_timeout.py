"""Carries each reminder in an `ex.hop` task that sends itself again with a countdown of at most 2 s (under the 3 s timeout) and sends `l08.remind` once it is due: the worker holds the reminder in memory the whole time, as the ETA of a task with another name. Violates: "until then holds no reminder in memory, in any way". Blind review.

No `l08.remind` before it is due, no message held past the timeout, and a killed worker gets the unacknowledged hop back.
"""
import time

from celerylab.lessons.l08_rabbitmq import tasks
from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "reminders"
HOP = 2.0  # seconds a hop waits in the worker: under consumer_timeout
_send = tasks.remind.apply_async


@app.task(name="ex.hop")
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
