"""CL103: a task_annotations '*' over a retry delay the decorator declares."""
from audit_apps.base import make_app

app = make_app("cl103", task_annotations={"*": {"max_retries": 3, "default_retry_delay": 60}})


@app.task(name="cl103.plain", bind=True)
def plain(self):
    return 1


@app.task(name="cl103.declared", bind=True, default_retry_delay=30)
def declared(self):
    return 1
