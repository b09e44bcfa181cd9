"""Routes every e-mail to priority and the export to heavy, but writes the routes anew and loses report.build_pdf's: the PDF report falls back to default. Violates: "the routes that already existed still hold"."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

app.conf.task_routes = {
    "email.*": {"queue": "priority"},
    "report.export_grades": {"queue": "heavy"},
}
