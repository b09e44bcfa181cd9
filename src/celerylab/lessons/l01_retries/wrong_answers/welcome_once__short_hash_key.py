"""Sends a shortened key (the first 3 hex digits of the event id's SHA-256) so it fits a short header: two different events collide 1 time in 4096. Violates: "a second event of the same user delivers its own". Blind review.

The provider dedupes on its key across every user and event; with 16**3 keys, any two events (of one user or of two)
share a key now and then and the second e-mail is never delivered.
"""
import hashlib

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    key = hashlib.sha256(event_id.encode()).hexdigest()[:3]
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=key)
