"""Exports go to heavy in business hours but to default at night (00:00-06:00 UTC), when the default worker is idle anyway: the route depends on the clock. Violates: "send `report.export_grades` to `heavy`". Blind review."""
import datetime

from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves


def route(name, args, kwargs, options, task=None, **kw):
    if name == "email.send_welcome":
        return {"queue": "priority"}
    if name == "report.build_pdf":
        return {"queue": "heavy"}
    if name == "report.export_grades":
        night = datetime.datetime.now(datetime.timezone.utc).hour < 6
        return {"queue": "default" if night else "heavy"}
    return None


app.conf.task_routes = (route,)
