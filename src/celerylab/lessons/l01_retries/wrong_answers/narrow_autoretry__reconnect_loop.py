"""Tries a refused connection again in a loop inside the task (3 tries) before letting Celery retry: an unreachable provider gets 9 connection attempts, 3 per Celery attempt. Violates: "retry with Celery (...), not in a loop inside the task" Blind review.
"""
from celerylab.fakes.clients import ProviderUnavailable, send_email
from celerylab.lessons.l01_retries.tasks import app

TRANSIENT = (TimeoutError, ConnectionError)


@app.task(name="ex.notify", autoretry_for=TRANSIENT, default_retry_delay=0.2, max_retries=2)
def notify(to: str) -> dict:
    for attempt in range(3):
        try:
            return send_email(to, "Bem-vindo! / Welcome!")
        except ConnectionError as error:
            if isinstance(error, (ProviderUnavailable, TimeoutError)) or attempt == 2:
                raise
