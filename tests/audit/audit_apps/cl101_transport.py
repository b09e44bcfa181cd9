"""CL101: a kombu transport option written as a setting."""
from audit_apps.base import make_app

app = make_app("cl101t", broker_visibility_timeout=7200)


@app.task(name="cl101t.work")
def work():
    return 1
