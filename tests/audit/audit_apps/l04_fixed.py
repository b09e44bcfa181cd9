"""Lesson 04's fix: results expire (whole seconds), and fire-and-forget tasks write none."""
from audit_apps.base import make_app

app = make_app("l04f", result_expires=3600)


@app.task(name="l04.double")
def double(n: int) -> int:
    return 2 * n


@app.task(name="l04.bulk", ignore_result=True)
def bulk(n: int) -> None:
    return None


@app.task(name="l04.report", track_started=True)
def report(n: int) -> int:
    return n


def status(task_id: str) -> str:
    state = report.AsyncResult(task_id).state
    return "running" if state == "STARTED" else state.lower()
