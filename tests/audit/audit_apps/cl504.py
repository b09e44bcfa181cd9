"""CL504: result_expires=2.7, which Redis truncates to 2."""
from audit_apps.base import make_app

app = make_app("cl504", result_expires=2.7)


@app.task(name="cl504.work")
def work():
    return 1
