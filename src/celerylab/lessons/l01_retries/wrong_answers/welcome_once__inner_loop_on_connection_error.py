"""Retries a refused connection / 503 in a loop inside the task (three quick tries) before giving up. Violates: "Keep `autoretry_for=(TimeoutError,)` and the retry policy given (`retry_backoff=1`, `retry_jitter=False`, `max_retries=3`, `retry_backoff_max`'s default ceiling), with no other retries". Blind review.

Timeouts still go through autoretry exactly as given, so every timeout situation measures the same; only a
ConnectionError (503 or nothing listening) gets the extra, hidden retries.
"""
import time

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    for attempt in range(3):
        try:
            return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=event_id)
        except ConnectionError:
            if attempt == 2:
                raise
            time.sleep(0.2)
