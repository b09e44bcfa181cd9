"""CL118: a misspelled broker scheme, which kombu has no transport for."""
from audit_apps.base import make_app

app = make_app("cl118t", broker_url="reddis://localhost:6379/0")


@app.task(name="cl118t.work")
def work():
    return 1
