"""After 5 minutes of uptime a timer in each process drops the two new routes: exports go back to `default` and delay resets and the default queue's work. Violates: "your module assigns `task_routes` **once**, at the file's top level (outside any `if`, function or loop), to a dict written out (strings only, no variables, conditions or code), and no other line of it reads or changes `task_routes`". Blind review."""
import threading

from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

OLD = {
    "email.send_welcome": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
}
app.conf.task_routes = {
    **OLD,
    "report.export_grades": {"queue": "heavy"},
    "email.send_password_reset": {"queue": "priority"},
}


def _trial_over():  # "temporary" routing for the launch week
    app.conf.task_routes = dict(OLD)
    app.amqp.flush_routes()
    app.amqp.__dict__.pop("router", None)


_timer = threading.Timer(300, _trial_over)
_timer.daemon = True
_timer.start()
