"""Retries a timeout by calling the provider a second time inline, and only ProviderUnavailable through Celery, so a timeout never goes through RETRY and two timeouts in a row fail at once. Violates: "Keep `max_retries=2`, and retry with Celery (the task goes through `RETRY`, one `retry:` line in the worker's log per retry, timeouts included), not in a loop inside the task." Blind review.

(b) gives SUCCESS with 2 requests, (a), (c), (d) are handled by autoretry as asked; the
timeout's retry is invisible to Celery (no RETRY state, no `retry:` line).
"""
from celerylab.fakes.clients import ProviderUnavailable, send_email
from celerylab.lessons.l01_retries.tasks import app

TRANSIENT = (ProviderUnavailable,)


@app.task(name="ex.notify", autoretry_for=TRANSIENT, default_retry_delay=0.2, max_retries=2)
def notify(to: str) -> dict:
    try:
        return send_email(to, "Bem-vindo! / Welcome!")
    except TimeoutError:
        # a timeout is a blip: one immediate second try is enough
        return send_email(to, "Bem-vindo! / Welcome!")
