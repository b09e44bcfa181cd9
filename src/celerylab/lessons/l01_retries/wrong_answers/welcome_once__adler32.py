"""Idempotency key is adler32(event_id), a weak 32-bit checksum ("ab-cd"-style swaps collide): two such events get one e-mail. Violates: "a second event of the same user delivers its own". Blind review."""
import zlib
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    key = f"welcome-{zlib.adler32(event_id.encode())}"
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=key)
