"""Counts publishes in each process's memory and, after 1000 of them, drops the export route there: a long-running API sends exports to `default` while fresh processes route them to `heavy`. Violates: "your module assigns `task_routes` **once**, at the file's top level (outside any `if`, function or loop), to a dict written out (strings only, no variables, conditions or code), and no other line of it reads or changes `task_routes`". Blind review."""
from celery import signals

from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

app.conf.task_routes = {
    "email.send_welcome": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
    "report.export_grades": {"queue": "heavy"},
    "email.send_password_reset": {"queue": "priority"},
}
_sent = [0]


@signals.after_task_publish.connect
def _count(**_):
    _sent[0] += 1
    if _sent[0] == 1000:  # warm-up over: heavy stays for PDFs
        app.conf.task_routes = {k: v for k, v in app.conf.task_routes.items() if k != "report.export_grades"}
        app.amqp.flush_routes()
        app.amqp.__dict__.pop("router", None)
