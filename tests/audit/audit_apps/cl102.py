"""CL102: a Task attribute with a made-up task_ prefix, set by assignment."""
from audit_apps.base import make_app

app = make_app("cl102")
app.conf.task_max_retries = 3   # a Task attribute with a made-up prefix


@app.task(name="cl102.work")
def work():
    return 1
