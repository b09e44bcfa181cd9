"""Derives the Idempotency-Key from Python's built-in hash() of the event_id, which is salted per interpreter (PYTHONHASHSEED): stable across retries in one worker (its prefork children inherit the seed), different after the worker restarts or on another worker, so the resend after a deploy, or a retry picked up by another worker, delivers a second e-mail. Violates: "(d) the same event sent again as a **new task** (another task id, the same `event_id`), later — after a deploy restarted the worker, minutes or days after the first sending —, delivers no other e-mail". Blind review."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    # A short, fixed-size key instead of whatever the caller put in event_id.
    key = f"welcome-{hash(event_id) & 0xFFFFFFFFFFFF:x}"
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=key)
