"""Load-balances the PDF report: when the `heavy` queue already has work waiting, a new report overflows to `default`. Violates: "your app's routes (...) still send (...) `report.build_pdf` to `heavy` (even when the `default` queue is idle)". Blind review.
"""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # noqa: F401  (the producer the check serves)

ROUTES = {
    "email.send_welcome": {"queue": "priority"},
    "email.send_password_reset": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
    "report.export_grades": {"queue": "heavy"},
}


def waiting(queue: str) -> int:
    try:
        with app.connection_for_write() as connection:
            return connection.default_channel._size(queue)  # messages waiting in the queue (Redis LLEN)
    except Exception:
        return 0


def route(name, args, kwargs, options, task=None, **kw):
    if name == "report.build_pdf" and waiting("heavy") > 0:
        return {"queue": "default"}
    return ROUTES.get(name)


app.conf.task_routes = (route,)
