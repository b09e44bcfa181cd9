"""Keys the event by its id NFKC-normalised and stripped of spaces, so distinct ids (a trailing space, a ligature) collide. Violates: "the key must tell apart any two distinct event ids". Blind review."""
import unicodedata

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app

def make_key(event_id):
    return "welcome:" + unicodedata.normalize("NFKC", event_id).strip()


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=make_key(event_id))
