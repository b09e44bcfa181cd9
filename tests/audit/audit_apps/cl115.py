"""CL115 (--live): a task module imported only outside the worker --live starts, which never registers it."""
import os

from audit_apps.base import make_app

app = make_app("cl115")

if not os.environ.get("CELERYLAB_AUDIT_APP"):  # set only in the worker --live starts
    import audit_apps.cl115_tasks  # noqa: F401


@app.task(name="cl115.always")
def always():
    return 1
