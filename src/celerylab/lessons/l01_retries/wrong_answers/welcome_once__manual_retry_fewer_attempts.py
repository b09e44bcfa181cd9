"""Retries by hand with max_retries=1: a provider that times out twice before accepting leaves FAILURE and no e-mail, an outage gets 2 attempts, not 4. Violates: "Keep `autoretry_for=(TimeoutError,)` and the retry policy given (`retry_backoff=1`, `retry_jitter=False`, `max_retries=3`, `retry_backoff_max`'s default ceiling), with no other retries." Blind review."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", bind=True, autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False,
          max_retries=3)
def welcome(self, user_id: int, event_id: str) -> dict:
    try:
        return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=event_id)
    except TimeoutError as exc:
        raise self.retry(exc=exc, countdown=1, max_retries=1)
