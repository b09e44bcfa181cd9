"""Adds retry_kwargs={"max_retries": 1}: autoretry passes it to retry(), so 1 retry happens while the max_retries attribute still reads 3. Violates: "Keep `autoretry_for=(TimeoutError,)` and the retry policy given (`retry_backoff=1`, `retry_jitter=False`, `max_retries=3`, `retry_backoff_max`'s default ceiling), with no other retries." Blind review."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3,
          retry_kwargs={"max_retries": 1})
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=event_id)
