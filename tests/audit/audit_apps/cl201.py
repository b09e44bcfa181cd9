"""CL201: a task with no time limit, global or its own."""
from audit_apps.base import make_app

app = make_app("cl201", drop=("task_time_limit", "task_soft_time_limit"))


@app.task(name="cl201.forever")
def forever():
    return 1


@app.task(name="cl201.limited", time_limit=10)
def limited():
    return 1
