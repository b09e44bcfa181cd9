"""CL408 at call sites: a 24 h countdown and a 24 h ETA on RabbitMQ wait unacknowledged past consumer_timeout
(a one-minute countdown does not)."""
from datetime import datetime, timedelta, timezone

from audit_apps.base import make_app

app = make_app("cl408c", broker_url="amqp://guest@localhost:5672//")


@app.task(name="cl408c.remind")
def remind(order_id):
    return order_id


def schedule_reminders(order_id):
    remind.apply_async((order_id,), countdown=86400)
    remind.apply_async((order_id,), eta=datetime.now(timezone.utc) + timedelta(hours=24))
    remind.apply_async((order_id,), countdown=60)
