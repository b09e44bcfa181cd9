"""CL406: broker_connection_retry=False with nothing said about start-up."""
from audit_apps.base import make_app

app = make_app("cl406", broker_connection_retry=False)


@app.task(name="cl406.work")
def work():
    return 1
