"""Keys the event by the first 16 hex digits (64 bits) of its sha256, a digest cut short. Violates: "the key must tell apart any two distinct event ids (a digest cut short collides among many events')". Blind review."""
import hashlib

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app

def make_key(event_id):
    return "welcome:" + hashlib.sha256(event_id.encode()).hexdigest()[:16]


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=make_key(event_id))
