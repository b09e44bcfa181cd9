"""Drops retry_jitter=False: Celery's default jitter draws each wait between 0 and 1, 2, 4 s instead of the policy's waits. Violates: "Keep `autoretry_for=(TimeoutError,)` and the retry policy given (`retry_backoff=1`, `retry_jitter=False`, `max_retries=3`, `retry_backoff_max`'s default ceiling), with no other retries." Blind review."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=event_id)
