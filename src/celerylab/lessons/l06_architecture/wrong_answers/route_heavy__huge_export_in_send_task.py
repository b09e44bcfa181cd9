"""Declares the right mapping, but replaces the app's send_task so that an export longer than 8 days goes to default: the app's routes answer right, the message does not go there. Violates: "A route is the task's, whatever its size"."""
from celery import Celery

from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

app.conf.task_routes = {
    "email.*": {"queue": "priority"},
    "report.*": {"queue": "heavy"},
}
_send_task = Celery.send_task


def send_task(self, name, args=None, kwargs=None, **options):
    seconds = (kwargs or {}).get("seconds", (args or (None, 0))[1] if len(args or ()) > 1 else 0)
    if name == "report.export_grades" and float(seconds or 0) > 8 * 86400:
        options["queue"] = "default"
    return _send_task(self, name, args, kwargs, **options)


Celery.send_task = send_task
