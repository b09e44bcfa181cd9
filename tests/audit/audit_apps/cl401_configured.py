"""CL401: an acks_late task longer than a configured visibility timeout."""
from audit_apps.base import make_app

app = make_app("cl401c", task_reject_on_worker_lost=True, broker_transport_options={"visibility_timeout": 20})


@app.task(name="cl401c.work", acks_late=True)
def work():
    return 1
