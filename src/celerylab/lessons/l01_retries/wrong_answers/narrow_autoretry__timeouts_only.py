"""Retries timeouts only: the provider down (503, a ConnectionError) fails at once. Violates: "(c) the provider down (503) on the first two attempts: SUCCESS with 3 requests"."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import app

TRANSIENT = (TimeoutError,)


@app.task(name="ex.notify", autoretry_for=TRANSIENT, default_retry_delay=0.2, max_retries=2)
def notify(to: str) -> dict:
    return send_email(to, "Bem-vindo! / Welcome!")
