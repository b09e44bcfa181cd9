"""Puts today's date in the provider's Idempotency-Key, so the same event sent again on another day (or a retry that crosses midnight) gets a new key and a second e-mail; the check's resend comes minutes later, on the same day. Violates: "(d) the same event sent again as a **new task** (another task id, the same `event_id`), later — after a deploy restarted the worker, minutes or days after the first sending —, delivers no other e-mail". Blind review."""
import datetime

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    # One key per event and per day: the provider only has to dedupe the retries of today's sending.
    key = f"{event_id}:{datetime.date.today().isoformat()}"
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=key)
