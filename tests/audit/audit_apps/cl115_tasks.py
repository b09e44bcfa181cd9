"""Tasks of cl115's app, in a module imported only when no stack runs it."""
from audit_apps.cl115 import app


@app.task(name="cl115.sometimes")
def sometimes():
    return 1
