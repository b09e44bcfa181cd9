"""Treats the provider's own 504 answer ("gateway timeout": it gave up before accepting) as final and ends in SUCCESS without an e-mail; only a client-side socket timeout is retried. Violates: "(c) the provider times out **before** accepting: nothing was sent, and the timeout is real — it must be retried, not swallowed". Blind review.
"""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    try:
        return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=event_id)
    except TimeoutError as exc:
        if str(exc).startswith("504"):
            return {"skipped": "provider gateway timeout, not sent"}
        raise
