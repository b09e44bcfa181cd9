"""CL402: a retry countdown and a Beat countdown beyond the visibility timeout."""
from celery.schedules import crontab

from audit_apps.base import make_app

app = make_app("cl402", beat_schedule={
    "remind": {"task": "cl402.remind", "schedule": crontab(hour=8, minute=0),
               "options": {"countdown": 5400, "expires": 9000}},
})


@app.task(name="cl402.remind", bind=True, default_retry_delay=4 * 3600)
def remind(self):
    try:
        raise ConnectionError("smtp down")
    except ConnectionError as exc:
        raise self.retry(exc=exc)
