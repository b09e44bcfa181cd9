"""Keeps an export shorter than 0.1 s on `default` ("not heavy") and sends only longer ones to `heavy`. Violates: "every export, the shorter one too, was received by the `heavy` worker and finished with `SUCCESS`" (and "send `report.export_grades` to `heavy`"). Blind review.
"""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

ROUTES = {
    "email.send_welcome": {"queue": "priority"},
    "email.send_password_reset": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
    "report.export_grades": {"queue": "heavy"},
}


def route(name, args, kwargs, options, task=None, **kw):
    if name == "report.export_grades":
        seconds = args[1] if len(args) > 1 else kwargs.get("seconds", 2.0)
        if seconds < 0.1:
            return {"queue": "default"}
    return ROUTES.get(name)


app.conf.task_routes = (route,)
