"""CL119: messages published as YAML to a worker that accepts JSON only; one task names a serializer kombu lacks."""
from audit_apps.base import make_app

app = make_app("cl119", task_serializer="yaml")


@app.task(name="cl119.report")
def report():
    return 1


@app.task(name="cl119.odd", serializer="no-such-format")
def odd():
    return 1
