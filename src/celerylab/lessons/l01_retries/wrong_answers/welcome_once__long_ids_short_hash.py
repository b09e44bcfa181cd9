"""Ids longer than 64 characters are replaced by 16 hex digits of their SHA-256 (a digest cut short): long ids may collide. Violates: "or is a whole hex digest (64 hex digits or more) of a cryptographic hash of at least 256 bits … (a digest cut short — 64 bits, a number modulo 10^14 — collides among many events). The event id is a non-empty text, of any length (hundreds of characters too)". Blind review."""
import hashlib

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


def _key(event_id: str) -> str:
    if len(event_id) <= 64:
        return f"welcome:{event_id}"
    return "welcome-h:" + hashlib.sha256(event_id.encode()).hexdigest()[:16]


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=_key(event_id))
