"""CL701 silent: queues declared without the default one, but every task is routed to a declared queue."""
from kombu import Queue

from audit_apps.base import make_app

app = make_app("cl701r", task_queues=[Queue("fast")], task_routes={"cl701r.*": {"queue": "fast"}})


@app.task(name="cl701r.one")
def one():
    return 1
