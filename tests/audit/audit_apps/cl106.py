"""CL106: annotations naming no registered task (annotations take whole names only)."""
from audit_apps.base import make_app

app = make_app("cl106", task_annotations={"cl106.sendmail": {"rate_limit": "10/s"}, "cl106.*": {"rate_limit": "1/s"}})


@app.task(name="cl106.send_mail")
def send_mail():
    return 1
