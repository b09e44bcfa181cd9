"""CL506: STARTED recorded with an expiry shorter than the task may run."""
from audit_apps.base import make_app

app = make_app("cl506", result_expires=20, task_track_started=True)


@app.task(name="cl506.slow")
def slow():
    return 1


@app.task(name="cl506.quick", time_limit=10, soft_time_limit=8)
def quick():
    return 1
