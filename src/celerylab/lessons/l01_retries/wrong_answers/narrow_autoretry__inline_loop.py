"""Retries inside the task body with a hard-coded loop of 3 attempts and no Celery retry at all (no RETRY state, no delay, max_retries unused). Violates: "Choose the retry policy so that:" / "Keep `max_retries=2`." Blind review.
"""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import app

TRANSIENT = (TimeoutError, ConnectionError)


@app.task(name="ex.notify", default_retry_delay=0.2, max_retries=2)
def notify(to: str) -> dict:
    for attempt in range(3):
        try:
            return send_email(to, "Bem-vindo! / Welcome!")
        except TRANSIENT:
            if attempt == 2:
                raise
