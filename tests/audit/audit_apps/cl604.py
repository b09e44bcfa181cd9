"""CL604: a Beat period shorter than the task's time limit (and a crontab that is not)."""
from datetime import timedelta

from celery.schedules import crontab

from audit_apps.base import make_app

app = make_app("cl604", beat_schedule={
    "poll": {"task": "cl604.poll", "schedule": timedelta(seconds=20), "options": {"expires": 15}},
    "every-minute": {"task": "cl604.poll", "schedule": crontab(minute="*"), "options": {"expires": 50}},
})


@app.task(name="cl604.poll")
def poll():
    return 1
