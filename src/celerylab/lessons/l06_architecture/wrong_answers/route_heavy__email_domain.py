"""Sends password resets of addresses outside .com/.org/.test/.example domains to default. Violates: "A route is the task's, whatever its size and however it is sent". Blind review."""
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
    if name.startswith("email."):
        email = str(kwargs.get("email", args[0] if args else ""))
        if email and not email.rsplit(".", 1)[-1].lower() in ("com", "org", "test", "example", "local", "invalid"):
            return {"queue": "default"}
    return ROUTES.get(name)


app.conf.task_routes = (route,)
