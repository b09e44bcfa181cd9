"""Leaves max_retries=2 in the decorator but retry_kwargs raises it to 5, so a provider down 3+ times is retried beyond the limit. Violates: "Keep `max_retries=2`." Blind review.
"""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import app

TRANSIENT = (TimeoutError, ConnectionError)


@app.task(name="ex.notify", autoretry_for=TRANSIENT, default_retry_delay=0.2, max_retries=2,
          retry_kwargs={"max_retries": 5})
def notify(to: str) -> dict:
    return send_email(to, "Bem-vindo! / Welcome!")
