"""CL112: the broker's password written as a string of its own, and the URL composed from it."""
from audit_apps.base import make_app

BROKER_PASSWORD = "Wq7-tr0ub4dor"
app = make_app("cl112l", broker_url=f"amqp://shop:{BROKER_PASSWORD}@rabbit:5672//")


@app.task(name="cl112l.work")
def work():
    return 1
