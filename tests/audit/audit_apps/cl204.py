"""CL204: time limits on the threads pool, which does not enforce them."""
from audit_apps.base import make_app

app = make_app("cl204", worker_pool="threads")


@app.task(name="cl204.work")
def work():
    return 1
