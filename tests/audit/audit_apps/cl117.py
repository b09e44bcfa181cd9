"""CL117: a Beat schedule written as a module variable beside an app that never loads this module as its configuration."""
from audit_apps.base import make_app

CELERY_TIMEZONE = "UTC"   # read below: it reaches app.conf
CELERY_BEAT_SCHEDULE = {"hourly": {"task": "cl117.sync", "schedule": 3600.0, "options": {"expires": 60}}}

app = make_app("cl117", timezone=CELERY_TIMEZONE)


@app.task(name="cl117.sync")
def sync():
    return 1
