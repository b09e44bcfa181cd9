"""Routes every e-mail to priority and leaves the exports on default: the e-mails are fast, the default queue’s other work waits behind the exports. Violates: "a short task the check sends straight to the default queue, during the exports, also starts in less than 0.5 s"."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

app.conf.task_routes = {
    "email.*": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
}
