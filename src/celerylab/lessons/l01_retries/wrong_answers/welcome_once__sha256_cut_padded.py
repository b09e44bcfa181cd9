"""Key is SHA-256 cut to its first 16 hex digits (64 bits), padded with zeros to 64. Violates: "a shorter digest padded with zeros, written twice or glued to another is no whole digest". Blind review."""
import hashlib
import zlib  # noqa: F401

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    text = f"{user_id}:{event_id}".encode()
    key = hashlib.sha256(text).hexdigest()[:16].rjust(64, "0")
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=key)
