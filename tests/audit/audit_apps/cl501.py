"""CL501: result_expires=None."""
from audit_apps.base import make_app

app = make_app("cl501", result_expires=None)


@app.task(name="cl501.work")
def work():
    return 1
