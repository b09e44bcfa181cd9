"""CL303: retry_backoff_max below one second, truncated to 0."""
from audit_apps.base import make_app

app = make_app("cl303")


@app.task(name="cl303.hammer", autoretry_for=(ConnectionError,), retry_backoff=True, retry_backoff_max=0.5,
          max_retries=3)
def hammer():
    return 1
