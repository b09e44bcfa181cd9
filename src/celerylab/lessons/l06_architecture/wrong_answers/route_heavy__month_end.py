"""At month-end closing (the last two days of the month) reports go to default, heavy being busy with the closing. Violates: "the routes hold at any time of day and on any day of the week or of the month (a month's or a year's end too)". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

import datetime


def route(name, args, kwargs, options, task=None, **kw):
    if name.startswith("email."):
        return {"queue": "priority"}
    if name.startswith("report."):
        tomorrow = datetime.date.today() + datetime.timedelta(days=2)
        if tomorrow.day <= 2:  # month-end closing
            return {"queue": "default"}
        return {"queue": "heavy"}
    return None


app.conf.task_routes = (route,)
