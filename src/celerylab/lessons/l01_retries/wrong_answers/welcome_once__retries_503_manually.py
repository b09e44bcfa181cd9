"""Adds a second, manual retry path (self.retry on a 503 / ConnectionError) next to the autoretry policy. Violates: "Keep `autoretry_for=(TimeoutError,)` and the retry policy given (`retry_backoff=1`, `retry_jitter=False`, `max_retries=3`, `retry_backoff_max`'s default ceiling), with no other retries". Blind review.

The attributes the check reads are untouched (autoretry_for is still (TimeoutError,)), but a provider answering 503
is retried up to 5 times, 1 s apart: a retry the statement forbids.
"""
from celerylab.fakes.clients import ProviderUnavailable, send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", bind=True, autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False,
          max_retries=3)
def welcome(self, user_id: int, event_id: str) -> dict:
    try:
        return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=event_id)
    except ProviderUnavailable as exc:
        raise self.retry(exc=exc, countdown=1, max_retries=5)
