"""Cuts the event_id to its first 32 characters for the Idempotency-Key ("providers cap the header"): two different events whose ids share a 32-character prefix (e.g. "customer-000123-welcome-campaign-a"/"-b") collapse into one key and the second event gets no e-mail; uuid4 ids and short ids, as a check is likely to use, never collide. Violates: "a second event of the same user delivers its own". Blind review."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app

MAX_KEY = 32  # the header length most providers accept


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=event_id[:MAX_KEY])
