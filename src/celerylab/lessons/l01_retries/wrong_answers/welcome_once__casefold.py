"""Idempotency key is the event id lower-cased and stripped: two events whose ids differ only in case ("Signup-A", "signup-a") get one e-mail. Violates: "a second event of the same user delivers its own". Blind review."""

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    key = event_id.strip().lower()
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=key)
