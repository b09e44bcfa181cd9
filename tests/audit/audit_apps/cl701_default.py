"""CL701: queues declared without the default one, and a task nothing routes elsewhere."""
from kombu import Queue

from audit_apps.base import make_app

app = make_app("cl701d", task_queues=[Queue("fast")], task_routes={"cl701d.routed": {"queue": "fast"}})


@app.task(name="cl701d.routed")
def routed():
    return 1


@app.task(name="cl701d.forgotten")
def forgotten():
    return 1


def checkout():
    """Sends the unrouted task as it is: to the default queue, which task_queues leaves out."""
    return forgotten.delay()
