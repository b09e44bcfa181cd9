"""CL101: a misspelled setting, set with conf.update."""
from audit_apps.base import make_app

app = make_app("cl101")
app.conf.update(task_acks_lat=True)


@app.task(name="cl101.work")
def work():
    return 1
