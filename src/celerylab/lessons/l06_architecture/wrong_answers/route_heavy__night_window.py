"""During the heavy worker's nightly maintenance window (00:00-01:59 UTC and all of Saturday) reports go to default. Violates: "Nor does it depend on the time: the routes hold at any time of day and on any day of the week or of the month". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

import datetime


def route(name, args, kwargs, options, task=None, **kw):
    if name.startswith("email."):
        return {"queue": "priority"}
    if name.startswith("report."):
        now = datetime.datetime.now(datetime.timezone.utc)
        if now.hour < 2 or now.weekday() == 5:  # heavy is drained for maintenance
            return {"queue": "default"}
        return {"queue": "heavy"}
    return None


app.conf.task_routes = (route,)
