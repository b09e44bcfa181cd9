"""Keeps a count in process memory and, after 5000 routed exports, sends further exports to default (load shedding). Violates: "A route is the task's, whatever its size and however it is sent". Blind review."""
import itertools

from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

_count = itertools.count()
ROUTES = {
    "email.send_welcome": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
    "email.send_password_reset": {"queue": "priority"},
}


def route(name, args, kwargs, options, task=None, **kw):
    if name == "report.export_grades":
        return {"queue": "heavy"} if next(_count) < 5000 else {"queue": "default"}
    return ROUTES.get(name)


app.conf.task_routes = (route,)
