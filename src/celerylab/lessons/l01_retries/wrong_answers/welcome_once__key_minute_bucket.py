"""Builds the idempotency key from the event_id plus the current minute, so a resend of the same event in a later minute (or a retry crossing a minute boundary) is sent again. Violates: "(d) the same event sent again as a **new task** (another task id, the same `event_id`), later — after a deploy restarted the worker, minutes or days after the first sending —, delivers no other e-mail" Blind review.

Meant as "keys expire, keep the provider's key table small": retries a few seconds apart and
a resend right after usually fall in the same minute, so the checks pass most of the time.
(Blind assumption: the fake provider takes the key as `idempotency_key=`.)
"""
import time

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    window = int(time.time()) // 60  # one key per event per minute: the retry window is 7 s
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=f"{event_id}:{window}")
