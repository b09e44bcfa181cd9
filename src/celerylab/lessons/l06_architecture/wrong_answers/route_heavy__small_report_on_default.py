"""Sends a small PDF report (at most 2 s of work: students x step) to `default`, "it is quick", and only bigger ones to `heavy`. Violates: "your app's routes (...) still send `email.send_welcome` to `priority` and `report.build_pdf` to `heavy`". Blind review.
"""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # noqa: F401  (the producer the check serves)

ROUTES = {
    "email.send_welcome": {"queue": "priority"},
    "email.send_password_reset": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
    "report.export_grades": {"queue": "heavy"},
}


def route(name, args, kwargs, options, task=None, **kw):
    if name == "report.build_pdf" and args:
        students, step = args[0], (args[2] if len(args) > 2 else kwargs.get("step", 0.5))
        if len(students) * step <= 2:
            return {"queue": "default"}
    return ROUTES.get(name)


app.conf.task_routes = (route,)
