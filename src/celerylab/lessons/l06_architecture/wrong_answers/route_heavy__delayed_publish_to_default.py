"""Declares the right mapping, but wraps kombu's Producer.publish so that an export or a password reset published with a delivery option (countdown or eta, expires, priority) goes to default: the routes answer right, the message does not go there. Violates: "A route is the task's ... however it is sent"."""
from kombu import Producer

from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

app.conf.task_routes = {
    "email.*": {"queue": "priority"},
    "report.*": {"queue": "heavy"},
}
_publish = Producer.publish


def publish(self, body, routing_key=None, *args, **kwargs):
    headers = kwargs.get("headers") or {}
    delayed = headers.get("eta") or headers.get("expires") or kwargs.get("priority")
    if headers.get("task") in ("report.export_grades", "email.send_password_reset") and delayed:
        routing_key, kwargs["exchange"] = "default", "default"
    return _publish(self, body, routing_key, *args, **kwargs)


Producer.publish = publish
