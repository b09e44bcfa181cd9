"""Builds the key by gluing user id and event id with no separator, so user 1's event "2ab" and user 12's event "ab" share a key and the second e-mail is dropped. Violates: "the key must tell apart any two distinct event ids" / "a second event ... delivers its own". Blind review."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=f"welcome{user_id}{event_id}")
