"""Pool processes (which publish chains' next steps, callbacks and tasks sent from tasks) get only the two new routes: a welcome e-mail or PDF report sent from inside a task lands on `default`. Violates: "your module assigns `task_routes` **once**, at the file's top level (outside any `if`, function or loop), to a dict written out (strings only, no variables, conditions or code), and no other line of it reads or changes `task_routes`" / "the chain goes on with a welcome e-mail and a PDF report, published by the pool processes that ran the reset and the e-mail, and received by `priority` and `heavy`". Blind review."""
from celery import signals

from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

NEW = {
    "report.export_grades": {"queue": "heavy"},
    "email.send_password_reset": {"queue": "priority"},
}
app.conf.task_routes = {
    "email.send_welcome": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
    **NEW,
}


@signals.worker_process_init.connect
def _lean_routes(**_):
    app.conf.task_routes = dict(NEW)
    app.amqp._rtable = None
    app.amqp.__dict__.pop("router", None)
