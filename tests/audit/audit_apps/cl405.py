"""CL405: acks_late with neither reject_on_worker_lost nor retry_on_worker_lost."""
from audit_apps.base import make_app

app = make_app("cl405", task_acks_late=True)


@app.task(name="cl405.pay")
def pay():
    return 1


@app.task(name="cl405.covered", reject_on_worker_lost=True)
def covered():
    return 1
