"""Key is not a digest at all: the last 32 bytes of the id in hex, padded to 64 hex digits, so long ids sharing their last 32 bytes read alike. Violates: "the key must tell apart any two distinct event ids". Blind review."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    key = event_id.encode().hex()[-64:].rjust(64, "0")
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=key)
