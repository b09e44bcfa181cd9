"""Key is the md5 digest padded with zeros to 64 hex digits (128 bits of hash). Violates: "a shorter digest padded with zeros, written twice or glued to another is no whole digest". Blind review."""
import hashlib
import zlib  # noqa: F401

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    text = f"{user_id}:{event_id}".encode()
    key = f"{int(hashlib.md5(text).hexdigest(), 16):064x}"
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=key)
