"""CL108: results and one task's messages serialized with pickle."""
from audit_apps.base import make_app

app = make_app("cl108", result_serializer="pickle")


@app.task(name="cl108.work", serializer="pickle")
def work():
    return 1
