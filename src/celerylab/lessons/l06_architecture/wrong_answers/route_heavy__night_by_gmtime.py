"""Exports go to default at night (00:00-06:00 UTC) by the C clock's hour (`time.gmtime()`, not datetime or time.time): the route depends on the clock. Violates: "send `report.export_grades` to `heavy`". Blind review."""
import time

from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves


def route(name, args, kwargs, options, task=None, **kw):
    if name == "email.send_welcome":
        return {"queue": "priority"}
    if name == "report.build_pdf":
        return {"queue": "heavy"}
    if name == "report.export_grades":
        night = time.gmtime().tm_hour < 6
        return {"queue": "default" if night else "heavy"}
    return None


app.conf.task_routes = (route,)
