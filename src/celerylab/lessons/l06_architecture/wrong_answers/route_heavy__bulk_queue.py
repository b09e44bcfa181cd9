"""Sends very large reports (over 500 students) and exports over 2 hours to a 'bulk' queue of their own, which no worker consumes. Violates: "A route is the task's, whatever its size and however it is sent". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves



def route(name, args, kwargs, options, task=None, **kw):
    if name.startswith("email."):
        return {"queue": "priority"}
    if name == "report.build_pdf":
        students = args[0] if args else kwargs.get("student_ids", [])
        return {"queue": "bulk"} if len(students) > 500 else {"queue": "heavy"}
    if name == "report.export_grades":
        seconds = args[1] if len(args) > 1 else kwargs.get("seconds", 2.0)
        return {"queue": "bulk"} if seconds > 7200 else {"queue": "heavy"}
    return None


app.conf.task_routes = (route,)
