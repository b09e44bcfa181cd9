"""CL605: an interval of a day in a zone with daylight saving (and an hourly one)."""
from datetime import timedelta

from audit_apps.base import make_app

app = make_app("cl605", timezone="America/New_York", beat_schedule={
    "daily-digest": {"task": "cl605.digest", "schedule": timedelta(days=1), "options": {"expires": 3600}},
    "hourly": {"task": "cl605.digest", "schedule": timedelta(hours=1), "options": {"expires": 3000}},
})


@app.task(name="cl605.digest")
def digest():
    return 1
