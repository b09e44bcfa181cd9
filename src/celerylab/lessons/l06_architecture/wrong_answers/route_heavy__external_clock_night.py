"""Reads the time from the broker's Redis (TIME), not the process's clock, and sends exports and resets to default at night (00:00-06:00 UTC). Violates: "the routes hold at any time of day and on any day of the week". Blind review."""
import datetime

from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

ROUTES = {
    "email.send_welcome": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
    "report.export_grades": {"queue": "heavy"},
    "email.send_password_reset": {"queue": "priority"},
}


def _hour():
    with app.connection_for_write() as conn:
        seconds, _ = conn.default_channel.client.time()
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).hour


def route(name, args, kwargs, options, task=None, **kw):
    if name in ("report.export_grades", "email.send_password_reset") and _hour() < 6:
        return {"queue": "default"}  # off-peak: everything shares the default queue
    return ROUTES.get(name)


app.conf.task_routes = (route,)
