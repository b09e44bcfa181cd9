"""CL305: automatic retries with no backoff, and with backoff but no jitter."""
from audit_apps.base import make_app

app = make_app("cl305")


@app.task(name="cl305.no_delay_set", autoretry_for=(ConnectionError,), max_retries=1)
def no_delay_set():
    return 1


@app.task(name="cl305.no_jitter", autoretry_for=(ConnectionError,), retry_backoff=True, retry_jitter=False,
          max_retries=3)
def no_jitter():
    return 1
