"""Key includes the current UTC day number (time.time() // 86400): the same event re-sent days or months later delivers again. Violates: "(d) the same event sent again as a **new task** (another task id, the same `event_id`), later — after a deploy replaced the worker with a new one, on another machine (another host name, its clock on another day; nothing the old one kept in memory or on its disk is there, nor what the broker's Redis held), minutes, days or months after the first sending —, delivers no other e-mail" Blind review."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app

import time


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    day = int(time.time() // 86400)
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=f"{event_id}:{day}")
