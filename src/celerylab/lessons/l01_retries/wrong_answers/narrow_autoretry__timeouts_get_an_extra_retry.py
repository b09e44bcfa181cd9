"""Keeps max_retries=2 on the decorator but gives timeouts their own budget (self.retry(..., max_retries=3)): a provider that times out on the first three attempts ends in SUCCESS after 4 requests instead of FAILURE after 3; only the 503 path honours the limit the statement fixes, and the visible cases (one timeout, 503 up to three times) pass. Violates: "Keep `max_retries=2`". Blind review."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import app

TRANSIENT = (ConnectionError,)
TIMEOUT_RETRIES = 3  # a timeout costs the provider nothing: give it one more chance


@app.task(name="ex.notify", bind=True, autoretry_for=TRANSIENT, default_retry_delay=0.2, max_retries=2)
def notify(self, to: str) -> dict:
    try:
        return send_email(to, "Bem-vindo! / Welcome!")
    except TimeoutError as exc:
        raise self.retry(exc=exc, countdown=0.2, max_retries=TIMEOUT_RETRIES)
