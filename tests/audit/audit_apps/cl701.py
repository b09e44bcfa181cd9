"""CL701: a route and a task sending to queues task_queues does not declare."""
from kombu import Queue

from audit_apps.base import make_app

app = make_app("cl701", task_queues=[Queue("celery"), Queue("search")],
               task_routes={"cl701.invoice": {"queue": "billing"}, "cl701.index": "search"})


@app.task(name="cl701.invoice")
def invoice():
    return 1


@app.task(name="cl701.index")
def index():
    return 1


@app.task(name="cl701.export", queue="exports")
def export():
    return 1
