"""CL601: a crontab with no timezone set."""
from celery.schedules import crontab

from audit_apps.base import make_app

app = make_app("cl601", drop=("timezone",), beat_schedule={
    "daily-report": {"task": "cl601.report", "schedule": crontab(hour=6, minute=0), "options": {"expires": 3600}},
    "every-minute": {"task": "cl601.report", "schedule": 60.0, "options": {"expires": 50}},
})


@app.task(name="cl601.report")
def report():
    return 1
