"""Uses the Celery task id as idempotency key: the same event re-sent as a new task (another id) is delivered again. Violates: "The `event_id` is made by whoever sends the task and is the same in every attempt." Blind review.
"""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", bind=True, autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False,
          max_retries=3)
def welcome(self, user_id: int, event_id: str) -> dict:
    # retries keep the task id, so it is a stable key across attempts
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=self.request.id)
