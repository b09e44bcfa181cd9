"""CL603: a Beat entry without expires."""
from audit_apps.base import make_app

app = make_app("cl603", beat_schedule={"hourly-sync": {"task": "cl603.sync", "schedule": 3600.0}})


@app.task(name="cl603.sync")
def sync():
    return 1
