"""CL107: accept_content allows pickle (by its content type)."""
from audit_apps.base import make_app

app = make_app("cl107", accept_content=["json", "application/x-python-serialize"])


@app.task(name="cl107.work")
def work():
    return 1
