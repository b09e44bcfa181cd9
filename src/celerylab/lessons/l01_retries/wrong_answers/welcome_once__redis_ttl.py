"""Remembers the event in Redis for one hour only: the same event sent again days later (after the key expired) delivers a second e-mail. Violates: "(d) the same event sent again as a **new task** (another task id, the same `event_id`), later — after a deploy restarted the worker, minutes, days or months after the first sending —, delivers no other e-mail" Blind review.
"""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app

DEDUP_SECONDS = 3600  # an hour covers any retry chain


@app.task(name="ex.welcome", bind=True, autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False,
          max_retries=3)
def welcome(self, user_id: int, event_id: str) -> str:
    redis = app.backend.client
    key = f"welcome-sent:{event_id}"
    if redis.exists(key):
        return "skipped"
    send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=self.request.id)
    redis.set(key, self.request.id, ex=DEDUP_SECONDS)
    return "sent"
