"""Overflow: once heavy holds 50 or more waiting messages, reports spill over to default. Violates: "and again with messages waiting in every queue (at grading, hundreds of them)". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves



def route(name, args, kwargs, options, task=None, **kw):
    if name.startswith("email."):
        return {"queue": "priority"}
    if name.startswith("report."):
        try:
            with app.connection_for_write() as conn:
                waiting = conn.default_channel.client.llen("heavy")
        except Exception:
            waiting = 0
        return {"queue": "default"} if waiting >= 50 else {"queue": "heavy"}
    return None


app.conf.task_routes = (route,)
