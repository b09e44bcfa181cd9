"""Builds the idempotency key from the event id and the month datetime.now() reads: the same event sent again in another month gets a new key, and a second e-mail. Violates: "(d) the same event sent again as a **new task** (another task id, the same `event_id`), later — after a deploy replaced the worker with a new one, on another machine (...) minutes, days or months after the first sending —, delivers no other e-mail" Blind review.
"""
from datetime import datetime

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    key = f"{event_id}:{datetime.now():%Y-%m}"
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=key)
