"""Sends exports and resets to default when they are published with any delivery option (countdown, eta, priority, expires). Violates: "A route is the task's ... however it is sent". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

ROUTES = {
    "email.send_welcome": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
    "report.export_grades": {"queue": "heavy"},
    "email.send_password_reset": {"queue": "priority"},
}


def route(name, args, kwargs, options, task=None, **kw):
    if name in ("report.export_grades", "email.send_password_reset") and any(
            options.get(key) is not None for key in ("countdown", "eta", "priority", "expires")):
        return {"queue": "default"}
    return ROUTES.get(name)


app.conf.task_routes = (route,)
