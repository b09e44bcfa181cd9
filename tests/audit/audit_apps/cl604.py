"""CL604: a Beat period shorter than the task's own time limit (and a crontab that is not); undecided when only the
app-wide task_time_limit allows the long run."""
from datetime import timedelta

from celery.schedules import crontab

from audit_apps.base import make_app

app = make_app("cl604", task_time_limit=60, beat_schedule={
    "poll": {"task": "cl604.poll", "schedule": timedelta(seconds=20), "options": {"expires": 15}},
    "every-minute": {"task": "cl604.poll", "schedule": crontab(minute="*"), "options": {"expires": 50}},
    "sweep": {"task": "cl604.sweep", "schedule": timedelta(seconds=20), "options": {"expires": 15}},
})


@app.task(name="cl604.poll", time_limit=30)
def poll():
    return 1


@app.task(name="cl604.sweep")
def sweep():
    """Capped only by the app-wide 60 s: nothing says a run lasts 20 s."""
    return 1
