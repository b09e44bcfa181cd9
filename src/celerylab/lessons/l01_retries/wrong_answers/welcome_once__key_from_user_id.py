"""Uses the user id as idempotency key instead of the event_id: a second welcome event for the same user is silently dropped. Violates: "The `event_id` is made by whoever sends the task and is the same in every attempt." Blind review.
"""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    # one welcome per user: the user is the natural key
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=f"welcome-{user_id}")
