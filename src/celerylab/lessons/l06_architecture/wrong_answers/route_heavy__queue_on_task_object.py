"""Puts the queue on the task objects instead of in `task_routes`: the API's `.delay()` follows it, but any producer that sends by name, and the app's router, still send both tasks to `default`. Violates: "Write the routing in `ex_routes.py`.". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app, export_grades, send_password_reset
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

# like @app.task(queue=...): delay() carries it along
export_grades.queue = "heavy"
send_password_reset.queue = "priority"
