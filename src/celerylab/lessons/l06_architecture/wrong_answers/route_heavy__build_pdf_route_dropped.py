"""Rewrites the routes for the new tasks and forgets `report.build_pdf`, so the PDF report goes back to the `default` queue and delays its ordinary work. Violates: "a short task the check sends straight to the `default` queue, during the exports, also starts in less than 0.5 s (the default queue's ordinary work does not wait for the heavy report);". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

app.conf.task_routes = {
    "email.*": {"queue": "priority"},
    "report.export_grades": {"queue": "heavy"},
}
