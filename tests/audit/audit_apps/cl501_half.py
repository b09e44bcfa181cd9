"""CL501: result_expires=0.5, which Redis truncates to 0 (never expires)."""
from audit_apps.base import make_app

app = make_app("cl501h", result_expires=0.5)


@app.task(name="cl501h.work")
def work():
    return 1
