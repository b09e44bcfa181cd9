"""Idempotency key is the first 8 hex digits of md5("welcome:" + event_id): two events whose salted digests share 32 bits get one e-mail. Violates: "a second event of the same user delivers its own". Blind review."""
import hashlib
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    key = hashlib.md5(f"welcome:{event_id}".encode()).hexdigest()[:8]
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=key)
