"""CL401: an acks_late task allowed to run longer than kombu's default visibility timeout."""
from audit_apps.base import make_app

app = make_app("cl401", task_reject_on_worker_lost=True)


@app.task(name="cl401.export", acks_late=True, time_limit=7200, soft_time_limit=7000)
def export():
    return 1


@app.task(name="cl401.quick", acks_late=True)
def quick():
    return 1
