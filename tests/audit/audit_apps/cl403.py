"""CL403: long acks_late tasks with the default prefetch multiplier."""
from audit_apps.base import make_app

app = make_app("cl403", drop=("worker_prefetch_multiplier",), task_reject_on_worker_lost=True)


@app.task(name="cl403.report", acks_late=True, time_limit=600, soft_time_limit=540)
def report():
    return 1


@app.task(name="cl403.ping", acks_late=True)
def ping():
    return 1
