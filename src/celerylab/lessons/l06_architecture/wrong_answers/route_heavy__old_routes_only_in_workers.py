"""Replaces task_routes with the new entries only and puts the old ones back in a `celeryd_init` handler, which runs in the workers alone: the API that publishes the welcome e-mail and the PDF report no longer routes them to `priority` and `heavy`. Violates: "the routes that already existed still hold"."""
from celery.signals import celeryd_init

from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # noqa: F401  (the producer the check serves)

app.conf.task_routes = {
    "report.export_grades": {"queue": "heavy"},
    "email.send_password_reset": {"queue": "priority"},
}


@celeryd_init.connect
def keep_the_old_routes(**_):
    app.conf.task_routes = {
        "email.send_welcome": {"queue": "priority"},
        "report.build_pdf": {"queue": "heavy"},
        **app.conf.task_routes,
    }
