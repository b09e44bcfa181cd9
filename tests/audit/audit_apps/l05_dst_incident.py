"""Lesson 05's daylight saving: a crontab in the hour New York skips in March and repeats in November."""
from celery.schedules import crontab

from audit_apps.base import make_app

app = make_app("l05d", timezone="America/New_York", beat_schedule={
    "night-batch": {"task": "report.night_batch", "schedule": crontab(minute="0,30", hour="0-3"),
                    "options": {"expires": 1200}},
})


@app.task(name="report.night_batch")
def night_batch():
    return 1
