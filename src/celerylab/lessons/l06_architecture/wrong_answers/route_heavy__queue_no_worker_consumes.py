"""Sends the reports to a queue of their own that no worker consumes: the e-mails are fast and the exports never run. Violates: "every export finished with SUCCESS" (a task sent to any other queue never runs)."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

app.conf.task_routes = {
    "email.*": {"queue": "priority"},
    "report.export_grades": {"queue": "reports"},
    "report.build_pdf": {"queue": "heavy"},
}
