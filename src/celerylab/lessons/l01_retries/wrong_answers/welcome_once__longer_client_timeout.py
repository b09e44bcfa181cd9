"""Avoids the fault with a 2 s client timeout instead of an idempotency key: a slower provider still duplicates. Violates: "(b) the provider accepts the e-mail and answers after the client's timeout;" Blind review.
"""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    # the provider is slow, so just wait longer for its answer
    return send_email(address(user_id), "Bem-vindo! / Welcome!", timeout=2.0)
