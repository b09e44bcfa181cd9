"""Adds a self.retry of its own for a connection reset (a fault the check never injects), on top of the autoretry policy. Violates: "with no other retries: nothing else calls the provider or runs the task again — no self.retry of your own". Blind review."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", bind=True, autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False,
          max_retries=3)
def welcome(self, user_id: int, event_id: str) -> dict:
    try:
        return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=f"welcome:{event_id}")
    except ConnectionResetError as exc:  # a dropped connection: try again in a few seconds
        raise self.retry(exc=exc, countdown=5)
