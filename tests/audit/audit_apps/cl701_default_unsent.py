"""CL701 undecided: the default queue is not declared, but every send of the unrouted task names its queue."""
from kombu import Queue

from audit_apps.base import make_app

app = make_app("cl701u", task_queues=[Queue("fast")],
               beat_schedule={"nightly": {"task": "cl701u.named", "schedule": 3600, "options": {"queue": "fast", "expires": 3000}}})


@app.task(name="cl701u.named")
def named():
    return 1


def checkout():
    """Every call names a declared queue (as GSA/notifications-api's apply_async(queue=QueueNames...))."""
    named.apply_async(queue="fast")
    return named.s().set(queue="fast")
