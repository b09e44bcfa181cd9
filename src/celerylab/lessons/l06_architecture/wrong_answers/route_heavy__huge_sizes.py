"""Sends an export longer than 8 days and a report of more than 200 000 students to default. Violates: "A route is the task's, whatever its size". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

ROUTES = {
    "email.send_welcome": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
    "report.export_grades": {"queue": "heavy"},
    "email.send_password_reset": {"queue": "priority"},
}


def _arg(args, kwargs, index, name, default=None):
    if name in kwargs:
        return kwargs[name]
    return args[index] if len(args) > index else default


def route(name, args, kwargs, options, task=None, **kw):
    args, kwargs = args or (), kwargs or {}
    try:
        if name == "report.export_grades" and float(_arg(args, kwargs, 1, "seconds", 2.0)) > 8 * 86400:
            return {"queue": "default"}
        if name == "report.build_pdf" and len(_arg(args, kwargs, 0, "student_ids", [])) > 200_000:
            return {"queue": "default"}
    except (TypeError, ValueError):
        pass
    return ROUTES.get(name)


app.conf.task_routes = (route,)
