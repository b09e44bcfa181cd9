"""CL602: crontabs at times New York's clock change skips and repeats (and one it does not touch)."""
from celery.schedules import crontab

from audit_apps.base import make_app

app = make_app("cl602", timezone="America/New_York", beat_schedule={
    "nightly": {"task": "cl602.job", "schedule": crontab(hour=2, minute=30), "options": {"expires": 3600}},
    "repeated": {"task": "cl602.job", "schedule": crontab(hour=1, minute=30), "options": {"expires": 3600}},
    "morning": {"task": "cl602.job", "schedule": crontab(hour=6, minute=0), "options": {"expires": 3600}},
})


@app.task(name="cl602.job")
def job():
    return 1
