"""Tiny exports and one-student reports stay on default when their size comes as a keyword argument, since they are quick. Violates: "passed by position or by keyword (producers send them either way)". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves



def route(name, args, kwargs, options, task=None, **kw):
    if name.startswith("email."):
        return {"queue": "priority"}
    if name == "report.export_grades" and kwargs.get("seconds", 2.0) < 0.1:
        return {"queue": "default"}
    if name == "report.build_pdf" and len(kwargs.get("student_ids", [None, None])) < 2:
        return {"queue": "default"}
    if name.startswith("report."):
        return {"queue": "heavy"}
    return None


app.conf.task_routes = (route,)
