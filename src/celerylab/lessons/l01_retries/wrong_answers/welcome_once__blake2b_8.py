"""Keys the event by an 8-byte blake2b digest (64 bits), which can collide for distinct ids. Violates: "the key must tell apart any two distinct event ids". Blind review."""
import hashlib

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app

def make_key(event_id):
    return "welcome:" + hashlib.blake2b(event_id.encode(), digest_size=8).hexdigest()


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=make_key(event_id))
