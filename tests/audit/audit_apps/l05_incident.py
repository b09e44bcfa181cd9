"""Lesson 05's incident: "every day at 6" with no time zone, and a 2:30 job in a zone with daylight saving."""
from celery.schedules import crontab

from audit_apps.base import make_app

app = make_app("l05", drop=("timezone",), beat_schedule={
    "daily-report": {"task": "report.build_daily", "schedule": crontab(hour=6, minute=0)},
})


@app.task(name="report.build_daily")
def build_daily():
    """Sent to the managers: three times when three Beats run."""
