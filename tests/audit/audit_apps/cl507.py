"""CL507: a cancel endpoint that terminates the worker's child process."""
from audit_apps.base import make_app

app = make_app("cl507")


@app.task(name="cl507.report")
def report():
    return 1


def cancel(task_id: str) -> None:
    report.AsyncResult(task_id).revoke(terminate=True)
