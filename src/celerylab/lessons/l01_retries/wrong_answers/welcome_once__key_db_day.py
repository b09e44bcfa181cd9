"""Adds the day, read from the database clock (not the worker clock the check moves), to the Idempotency-Key: the same event resent on another real day gets a second e-mail. Violates: "(d) the same event sent again as a **new task** [...] minutes, days or months after the first sending —, delivers no other e-mail". Blind review."""
from celerylab.appdb import connect, scalar
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    day = scalar(connect(), "SELECT CURRENT_DATE")
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=f"{event_id}@{day}")
