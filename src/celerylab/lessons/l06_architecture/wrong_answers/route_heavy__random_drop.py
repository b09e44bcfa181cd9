"""Each process, at import, keeps the export route only with probability 0.999: now and then a process (an API or a worker) sends exports to `default`. Violates: "your module assigns `task_routes` **once**, at the file's top level (outside any `if`, function or loop), to a dict written out (strings only, no variables, conditions or code), and no other line of it reads or changes `task_routes`". Blind review."""
import random

from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

app.conf.task_routes = {
    "email.send_welcome": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
    "email.send_password_reset": {"queue": "priority"},
}
if random.random() < 0.999:  # canary: a few processes keep the old behaviour
    app.conf.task_routes["report.export_grades"] = {"queue": "heavy"}
