"""Retries OSError and ValueError: the refused address (the client raises InvalidAddress, a ValueError) is retried twice. Violates: "(a) an address the provider refuses ends in FAILURE after 1 request"."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import app

TRANSIENT = (OSError, ValueError)


@app.task(name="ex.notify", autoretry_for=TRANSIENT, default_retry_delay=0.2, max_retries=2)
def notify(to: str) -> dict:
    return send_email(to, "Bem-vindo! / Welcome!")
