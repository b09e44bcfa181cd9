"""Lesson 05's fix: the schedule in the office's zone (no daylight saving since 2019), each entry expiring."""
from celery.schedules import crontab

from audit_apps.base import make_app

app = make_app("l05f", timezone="America/Sao_Paulo", beat_schedule={
    "daily-report": {"task": "report.build_daily", "schedule": crontab(hour=6, minute=0),
                     "options": {"expires": 3600}},
})


@app.task(name="report.build_daily")
def build_daily():
    return 1
