"""Narrows the exceptions correctly but bumps max_retries to 3 "to be safe": a provider down 3 times ends SUCCESS after 4 requests. Violates: "Keep `max_retries=2`." Blind review.
"""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import app

TRANSIENT = (TimeoutError, ConnectionError)


@app.task(name="ex.notify", autoretry_for=TRANSIENT, default_retry_delay=0.2, max_retries=3)
def notify(to: str) -> dict:
    return send_email(to, "Bem-vindo! / Welcome!")
