from audit_apps.base import make_app

app = make_app("cl501h", result_expires=0.5)


@app.task(name="cl501h.work")
def work():
    return 1
