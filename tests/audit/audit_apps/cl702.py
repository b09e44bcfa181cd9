"""CL702: a route to an undeclared queue while task_create_missing_queues is off (the send raises QueueNotFound)."""
from kombu import Queue

from audit_apps.base import make_app

app = make_app("cl702", task_queues=[Queue("celery")], task_create_missing_queues=False,
               task_routes={"cl702.payment": {"queue": "billing"}})


@app.task(name="cl702.payment")
def payment():
    return 1
