"""Sends an idempotency key made anew on every attempt: the retry after a late acceptance is a new e-mail to the provider. Violates: "exactly one e-mail delivered" in (b), and "the event_id ... is the same in every attempt"."""
import uuid

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=uuid.uuid4().hex)
