"""Idempotency key is crc32("welcome:" + event_id), a 32-bit checksum: two events that share it get one e-mail. Violates: "a second event of the same user delivers its own". Blind review."""
import zlib
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    key = f"{zlib.crc32(('welcome:' + event_id).encode()):08x}"
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=key)
