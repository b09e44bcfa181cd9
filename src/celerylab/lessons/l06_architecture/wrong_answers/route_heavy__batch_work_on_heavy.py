"""Sends every kind of batch work of the app (reports, imports, data jobs, billing) to heavy, not only the exports: the e-mails are fast, but tasks the statement leaves alone leave the default queue. Violates: "every other task of the app (neither an e-mail nor a report) stays on `default` too". Blind review.

Passes a check that asks only about the routes the statement names and one task without a route; moving
`data.*`, `import.*` and `billing.*` puts their work behind the exports on the `heavy` worker.
"""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

app.conf.task_routes = {
    "email.*": {"queue": "priority"},
    "report.*": {"queue": "heavy"},
    "import.*": {"queue": "heavy"},
    "data.*": {"queue": "heavy"},
    "billing.*": {"queue": "heavy"},
}
