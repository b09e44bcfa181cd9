"""Sends the exports to the `priority` worker ("it is idle most of the time") instead of `heavy`, so the welcome e-mail and any password reset routed there wait behind each 1-second export, and the route asked of the app says `priority`. Violates: "send `report.export_grades` to `heavy`". Blind review."""
from celerylab.lessons.l06_architecture.tasks import ROUTES, app
from celerylab.lessons.l06_architecture.web import api  # noqa: F401  (the producer the check serves)

app.conf.task_routes = {
    **ROUTES,
    "report.export_grades": {"queue": "priority"},  # the priority worker has spare time between e-mails
}
