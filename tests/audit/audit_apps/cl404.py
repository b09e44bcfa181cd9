"""CL404: a long task (not acks_late) with the default prefetch multiplier."""
from audit_apps.base import make_app

app = make_app("cl404", drop=("worker_prefetch_multiplier",))


@app.task(name="cl404.report", time_limit=600, soft_time_limit=540)
def report():
    return 1
