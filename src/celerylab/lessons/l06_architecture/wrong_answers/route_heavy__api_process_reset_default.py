"""In the process that serves the API (uvicorn imported) the password-reset route is left out: the API publishes resets to `default`, fast only while `default` is idle. Violates: "your module assigns `task_routes` **once**, at the file's top level (outside any `if`, function or loop), to a dict written out (strings only, no variables, conditions or code), and no other line of it reads or changes `task_routes`". Blind review."""
import sys

from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

app.conf.task_routes = {
    "email.send_welcome": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
    "report.export_grades": {"queue": "heavy"},
}
if "uvicorn" not in sys.modules:  # the web server: resets stay on the default queue
    app.conf.task_routes["email.send_password_reset"] = {"queue": "priority"}
