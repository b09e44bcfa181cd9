"""The two new routes are a stop-gap that lapses on 1 January 2027 (decided from the clock at import): from then on exports land on `default` again. Violates: "your module assigns `task_routes` **once**, at the file's top level (outside any `if`, function or loop), to a dict written out (strings only, no variables, conditions or code), and no other line of it reads or changes `task_routes`". Blind review."""
import datetime

from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

app.conf.task_routes = {
    "email.send_welcome": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
}
if datetime.date.today() < datetime.date(2027, 1, 1):  # until the new export service ships
    app.conf.task_routes.update({
        "report.export_grades": {"queue": "heavy"},
        "email.send_password_reset": {"queue": "priority"},
    })
