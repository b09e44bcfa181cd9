"""CL304: retry_backoff=2.7, which acts as 2."""
from audit_apps.base import make_app

app = make_app("cl304")


@app.task(name="cl304.fractional", autoretry_for=(ConnectionError,), retry_backoff=2.7, max_retries=1)
def fractional():
    return 1
