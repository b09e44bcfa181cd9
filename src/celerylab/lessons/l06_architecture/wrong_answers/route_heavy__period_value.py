"""Sends a year-end export (a period ending in -12 or Q4) to default. Violates: "A route is the task's, whatever its size and however it is sent". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

ROUTES = {
    "email.send_welcome": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
    "report.export_grades": {"queue": "heavy"},
    "email.send_password_reset": {"queue": "priority"},
}


def route(name, args, kwargs, options, task=None, **kw):
    args, kwargs = args or (), kwargs or {}
    period = str(kwargs.get("period", args[0] if args else ""))
    if name in ("report.export_grades", "report.build_pdf") and (period.endswith("-12") or "Q4" in period.upper()):
        return {"queue": "default"}
    return ROUTES.get(name)


app.conf.task_routes = (route,)
