"""Lesson 01's fix: transient errors only, with backoff, jitter and a ceiling."""
from audit_apps.base import make_app

app = make_app("l01f")
TRANSIENT = (ConnectionError, TimeoutError)


@app.task(name="l01.welcome", autoretry_for=TRANSIENT, retry_backoff=True, max_retries=5)
def welcome(address: str):
    """A permanent error fails at once; a transient one waits 1, 2, 4... seconds, jittered."""


@app.task(name="l01.notify_webhook", bind=True, max_retries=3)
def notify_webhook(self, payload: dict):
    """Manual retry honouring Retry-After, with a ceiling."""
    try:
        raise ConnectionError("429")
    except ConnectionError as exc:
        raise self.retry(exc=exc, countdown=2)
