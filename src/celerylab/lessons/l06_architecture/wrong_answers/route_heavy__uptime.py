"""Routes by how long the producer process has run (monotonic clock): after an hour, exports and resets fall back to default. Violates: "Nor does it depend on the time" / "A route is the task's". Blind review."""
import time

from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

_STARTED = time.monotonic()
ROUTES = {
    "email.send_welcome": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
    "report.export_grades": {"queue": "heavy"},
    "email.send_password_reset": {"queue": "priority"},
}


def route(name, args, kwargs, options, task=None, **kw):
    if name in ("report.export_grades", "email.send_password_reset") and time.monotonic() - _STARTED > 3600:
        return {"queue": "default"}
    return ROUTES.get(name)


app.conf.task_routes = (route,)
