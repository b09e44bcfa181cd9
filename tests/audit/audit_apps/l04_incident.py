"""Lesson 04's incident: "so just never expire them" — and a result_expires below one second, which means the same."""
from audit_apps.base import make_app

app = make_app("l04", result_expires=None)


@app.task(name="l04.double")
def double(n: int) -> int:
    return 2 * n


def status(task_id: str) -> str:
    """The shop's status endpoint: "running" never shows, the task goes from PENDING ("in the queue") to the end."""
    state = double.AsyncResult(task_id).state
    if state == "STARTED":
        return "running"
    return "queued" if state == "PENDING" else state.lower()
