"""Retries the transient errors but raises max_retries to 5: a provider down three times ends in SUCCESS after 4 requests. Violates: "Keep `max_retries=2`"."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import app

TRANSIENT = (TimeoutError, ConnectionError)


@app.task(name="ex.notify", autoretry_for=TRANSIENT, default_retry_delay=0.2, max_retries=5)
def notify(to: str) -> dict:
    return send_email(to, "Bem-vindo! / Welcome!")
