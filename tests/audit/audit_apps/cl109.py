"""CL109: a task whose name comes from its module's path."""
from audit_apps.base import make_app

app = make_app("cl109")


@app.task
def unnamed():
    return 1


@app.task(name="cl109.named")
def named():
    return 1
