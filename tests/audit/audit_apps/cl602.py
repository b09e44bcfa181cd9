"""CL602: crontabs at times New York's clock change skips and repeats (and ones it does not touch: a fixed time
outside the change, and entries that run in every hour, where one hour more or less moves one of many runs)."""
from celery.schedules import crontab

from audit_apps.base import make_app

app = make_app("cl602", timezone="America/New_York", beat_schedule={
    "nightly": {"task": "cl602.job", "schedule": crontab(hour=2, minute=30), "options": {"expires": 3600}},
    "repeated": {"task": "cl602.job", "schedule": crontab(hour=1, minute=30), "options": {"expires": 3600}},
    "morning": {"task": "cl602.job", "schedule": crontab(hour=6, minute=0), "options": {"expires": 3600}},
    "every-five-minutes": {"task": "cl602.job", "schedule": crontab(minute="*/5"), "options": {"expires": 240}},
    "every-half-hour": {"task": "cl602.job", "schedule": crontab(minute="*/30"), "options": {"expires": 1500}},
})


@app.task(name="cl602.job")
def job():
    return 1
