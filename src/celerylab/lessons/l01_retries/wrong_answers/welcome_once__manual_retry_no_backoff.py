"""Keeps the decorator but retries timeouts by hand with countdown=0: the policy's 1, 2, 4 s waits between attempts never happen. Violates: "Keep `autoretry_for=(TimeoutError,)` and the retry policy given (`retry_backoff=1`, `retry_jitter=False`, `max_retries=3`, `retry_backoff_max`'s default ceiling), with no other retries." Blind review."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", bind=True, autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False,
          max_retries=3)
def welcome(self, user_id: int, event_id: str) -> dict:
    try:
        return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=event_id)
    except TimeoutError as exc:
        raise self.retry(exc=exc, countdown=0)  # the provider is usually back at once
