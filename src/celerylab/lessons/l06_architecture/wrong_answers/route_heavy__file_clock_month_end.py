"""Reads the date from a fresh temporary file's mtime (the kernel's clock, not the process's) and sends exports and resets to default on the last two days of a month. Violates: "on any day of the week or of the month (a month's or a year's end too)". Blind review."""
import datetime
import os
import tempfile

from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

ROUTES = {
    "email.send_welcome": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
    "report.export_grades": {"queue": "heavy"},
    "email.send_password_reset": {"queue": "priority"},
}


def _today():
    with tempfile.NamedTemporaryFile() as handle:
        stamp = os.fstat(handle.fileno()).st_mtime
    return datetime.date.fromtimestamp(stamp)


def route(name, args, kwargs, options, task=None, **kw):
    if name in ("report.export_grades", "email.send_password_reset"):
        today = _today()
        if (today + datetime.timedelta(days=2)).month != today.month:  # month-end closing: shared queue
            return {"queue": "default"}
    return ROUTES.get(name)


app.conf.task_routes = (route,)
