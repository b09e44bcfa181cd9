"""Replaces task_routes with the two new routes only: the welcome e-mail and the PDF report fall back to default, which looks fine while the exports have left it. Violates: "so did the welcome e-mail, and the routes that already existed still hold"."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

app.conf.task_routes = {
    "email.send_password_reset": {"queue": "priority"},
    "report.export_grades": {"queue": "heavy"},
}
