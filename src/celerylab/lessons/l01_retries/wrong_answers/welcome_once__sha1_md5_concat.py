"""Key is the sha1 and md5 hex digests glued: 72 hex digits, no hash of 256 bits. Violates: "or is the whole hex digest, as `hexdigest()` writes it (64, 96 or 128 hex digits), of a cryptographic hash of 256 bits or more". Blind review."""
import hashlib

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    text = f"{user_id}:{event_id}".encode()
    key = hashlib.sha1(text).hexdigest() + hashlib.md5(text).hexdigest()
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=key)
