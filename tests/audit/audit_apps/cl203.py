from audit_apps.base import make_app

app = make_app("cl203")


@app.task(name="cl203.stream", time_limit=0, soft_time_limit=0)
def stream():
    return 1
