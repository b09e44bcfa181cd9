"""CL203: time_limit=0 and soft_time_limit=0 turning the global limits off."""
from audit_apps.base import make_app

app = make_app("cl203")


@app.task(name="cl203.stream", time_limit=0, soft_time_limit=0)
def stream():
    return 1
