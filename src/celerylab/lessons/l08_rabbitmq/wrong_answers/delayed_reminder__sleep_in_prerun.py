"""Strips the ETA from reminder messages before they are published and sleeps until it in a task_prerun handler, so the message is acknowledged at once and inspect scheduled lists nothing while the reminder in fact sits in the worker's (only) process, and is lost if the worker dies. Violates: "the worker receives the reminder only when it is due (its log's `Task l08.remind[…] received` line comes no earlier), and until then holds no reminder in memory, in any way: asked again and again from 1 s after it is scheduled, `inspect scheduled`, `inspect reserved` and `inspect active` list no `l08.remind`;". Blind review.

No ETA in the worker's schedule, no unacknowledged message, runs once and on time: every probe the
statement names is satisfied, yet the worker holds the reminder (and is blocked by it) for the whole countdown.
"""
import time
from datetime import datetime, timezone

from celery.signals import before_task_publish, task_prerun

from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "reminders"


@before_task_publish.connect
def _eta_to_header(sender=None, headers=None, **kwargs):
    if sender == "l08.remind" and headers and headers.get("eta"):
        headers["remind_at"] = headers["eta"]   # keep the time, drop the ETA
        headers["eta"] = None


@task_prerun.connect
def _wait_until_due(task=None, **kwargs):
    due = getattr(task.request, "remind_at", None)
    if due:
        wait = (datetime.fromisoformat(due) - datetime.now(timezone.utc)).total_seconds()
        if wait > 0:
            time.sleep(wait)
