"""Routes the exports to priority with the e-mails: the password resets wait behind the exports. Violates: "each password reset started running less than 0.5 s after its request"."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

app.conf.task_routes = {
    "email.*": {"queue": "priority"},
    "report.export_grades": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
}
