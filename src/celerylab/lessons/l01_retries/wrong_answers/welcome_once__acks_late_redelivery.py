"""Turns on acks_late and reject_on_worker_lost, so a worker lost mid-task makes the broker deliver the task again. Violates: "Keep `autoretry_for=(TimeoutError,)` and the retry policy given (...), with no other retries". Blind review.

Every attribute the check reads is as given; the extra run comes from a redelivery, not from autoretry.
"""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3,
          acks_late=True, reject_on_worker_lost=True)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=event_id)
