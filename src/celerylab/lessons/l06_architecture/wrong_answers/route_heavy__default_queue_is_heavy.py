"""Makes `heavy` the default queue so "anything not known" goes with the exports: the check's explicit default-queue task is fine, but every other unrouted task of the app now waits behind the heavy exports. Violates: "the default queue's ordinary work does not wait for the heavy report". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

app.conf.task_default_queue = "heavy"
app.conf.task_routes = {
    "email.send_welcome": {"queue": "priority"},
    "email.send_password_reset": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
}
