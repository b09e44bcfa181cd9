"""Sends exports and resets to default when they are published from inside another running task (a worker, a chain step, a scheduled job). Violates: "A route is the task's ... however it is sent" / "producers send them either way". Blind review."""
from celery import current_task

from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

ROUTES = {
    "email.send_welcome": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
    "report.export_grades": {"queue": "heavy"},
    "email.send_password_reset": {"queue": "priority"},
}


def route(name, args, kwargs, options, task=None, **kw):
    if name in ("report.export_grades", "email.send_password_reset") and current_task and current_task.request.id:
        return {"queue": "default"}  # a task fanning out work: keep it on the worker's own queue
    return ROUTES.get(name)


app.conf.task_routes = (route,)
