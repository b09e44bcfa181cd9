"""Glob patterns without the dot (`report*`, `email*`) also route tasks outside those namespaces (`reporting.x`, `emails_digest.y`) off `default`. Violates: "and so do tasks without a route of other names, even those that only begin as the e-mails and the reports do". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

app.conf.task_routes = {
    "email*": {"queue": "priority"},
    "report*": {"queue": "heavy"},
}
