"""Keys the event by its id with every non-alphanumeric character removed, so evt-1-2 and evt-12 collide. Violates: "the key must tell apart any two distinct event ids". Blind review."""
import re

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app

def make_key(event_id):
    return "welcome:" + re.sub(r"[^A-Za-z0-9]", "", event_id)


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=make_key(event_id))
