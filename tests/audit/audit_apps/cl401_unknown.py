"""CL401 undecided: an acks_late task with no time limit at all."""
from audit_apps.base import make_app

app = make_app("cl401u", drop=("task_time_limit", "task_soft_time_limit"), task_reject_on_worker_lost=True)


@app.task(name="cl401u.open_ended", acks_late=True)
def open_ended():
    return 1
