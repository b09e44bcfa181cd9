"""Adds ConnectionError to autoretry_for (a 503 or a refused connection is retried too). Violates: "Keep `autoretry_for=(TimeoutError,)` and the retry policy given (`retry_backoff=1`, `max_retries=3`, `retry_backoff_max`'s default ceiling): the check reads both in the worker". Blind review."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError, ConnectionError), retry_backoff=1, retry_jitter=False,
          max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=event_id)
