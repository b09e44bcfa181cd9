"""Idempotency key is sha256(event_id) as an integer mod 10**8 (8 decimal digits, ~27 bits): two events that share it get one e-mail. Violates: "a second event of the same user delivers its own". Blind review."""
import hashlib
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    key = str(int(hashlib.sha256(event_id.encode()).hexdigest(), 16) % 10**8)
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=key)
