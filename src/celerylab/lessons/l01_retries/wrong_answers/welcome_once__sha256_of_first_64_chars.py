"""Key is the whole SHA-256 of only the first 64 characters of the id: long ids sharing a prefix read alike. Violates: "the key must tell apart any two distinct event ids". Blind review."""
import hashlib

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    key = hashlib.sha256(f"welcome:{event_id[:64]}".encode()).hexdigest()
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=key)
