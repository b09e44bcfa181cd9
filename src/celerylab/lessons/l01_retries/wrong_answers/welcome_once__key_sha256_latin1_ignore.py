"""Key hashes the id encoded as Latin-1 with errors="ignore": characters outside Latin-1 are dropped before hashing, ids differing only in them read alike. Violates: "the key must tell apart any two distinct event ids". Blind review."""
import hashlib
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=hashlib.sha256(event_id.encode("latin-1", "ignore")).hexdigest())
