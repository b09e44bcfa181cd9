"""CL306: a retry_kwargs countdown the backoff overwrites."""
from audit_apps.base import make_app

app = make_app("cl306")


@app.task(name="cl306.kwargs_and_backoff", autoretry_for=(ConnectionError,), retry_backoff=True,
          retry_kwargs={"max_retries": 2, "countdown": 5})
def kwargs_and_backoff():
    return 1
