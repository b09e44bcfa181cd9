"""Replaces the app's routes with only the two new tasks, so the welcome e-mail silently falls back to `default` (fast only while default is idle). Violates: "so did the welcome e-mail (the route that already existed still holds);". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

app.conf.task_routes = {
    "email.send_password_reset": {"queue": "priority"},
    "report.export_grades": {"queue": "heavy"},
}
