"""Adds a generic rule: any task called with a big batch (a list argument of more than 20 items) is heavy work and goes to `heavy`, whatever its name. Violates: "every other task of the app (neither an e-mail nor a report) stays on `default` too". Blind review.

A chord's consolidate over many chunks, a CSV import's insert of many users, etc. now leave the default queue.
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
    if name in ROUTES:
        return ROUTES[name]
    if any(isinstance(value, (list, tuple)) and len(value) > 20 for value in (*args, *kwargs.values())):
        return {"queue": "heavy"}
    return None


app.conf.task_routes = (route,)
