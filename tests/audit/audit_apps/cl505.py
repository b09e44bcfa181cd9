"""CL505: a status that waits for STARTED, which no task records."""
from celery.result import AsyncResult

from audit_apps.base import make_app

app = make_app("cl505")


@app.task(name="cl505.report")
def report():
    return 1


def status(task_id: str) -> str:
    state = AsyncResult(task_id, app=app).state
    if state == "STARTED":
        return "running"
    return state.lower()
