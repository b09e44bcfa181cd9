"""Replaces task_routes with only the new entries, so email.send_welcome falls back to `default` and report.build_pdf lands on `default` next to the short work (the welcome still looks fast while `default` is idle). Violates: "your app's routes (`task_routes`, asked of the worker's app: what any producer of the app follows) still send `email.send_welcome` to `priority` and `report.build_pdf` to `heavy`". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # noqa: F401  (the producer the check serves)

app.conf.task_routes = {
    "report.export_grades": {"queue": "heavy"},
    "email.send_password_reset": {"queue": "priority"},
}
