"""Removes the ETA from reminder messages before publishing so the worker never has anything to hold, which makes the reminder run immediately instead of after its countdown. Violates: "the reminder runs exactly once, and not before its 4 s;". Blind review.

Fixes the memory and the ack timeout by deleting the delay itself.
"""
from celery.signals import before_task_publish

from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "reminders"


@before_task_publish.connect
def _no_eta_held_in_worker(sender=None, headers=None, **kwargs):
    if sender == "l08.remind" and headers:
        headers["eta"] = None
