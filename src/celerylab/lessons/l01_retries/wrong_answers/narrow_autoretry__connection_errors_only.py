"""Retries connection errors only: a timeout on the first attempt is a FAILURE after 1 request. Violates: "(b) a timeout on the first attempt is retried: SUCCESS with 2 requests"."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import app

TRANSIENT = (ConnectionError,)


@app.task(name="ex.notify", autoretry_for=TRANSIENT, default_retry_delay=0.2, max_retries=2)
def notify(to: str) -> dict:
    return send_email(to, "Bem-vindo! / Welcome!")
