"""CL110: task_always_eager on."""
from audit_apps.base import make_app

app = make_app("cl110", task_always_eager=True)


@app.task(name="cl110.work")
def work():
    return 1
