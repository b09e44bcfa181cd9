"""Catches the timeout and returns: the e-mail accepted late is not sent twice, but a timeout before accepting sends nothing and still reads SUCCESS. Violates: "(c) ... the timeout is real — it must be retried, not swallowed"."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    try:
        return send_email(address(user_id), "Bem-vindo! / Welcome!")
    except TimeoutError:
        return {"status": "timeout"}
