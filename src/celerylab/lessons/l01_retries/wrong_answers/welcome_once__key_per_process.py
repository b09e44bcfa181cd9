"""Makes the provider's key from the event_id and a token drawn once per worker process, so the same event re-sent after a deploy restarted the worker carries a new key and is delivered again. Violates: "(d) the same event sent again as a **new task** (another task id, the same `event_id`), later — after a deploy restarted the worker, minutes or days after the first sending —, delivers no other e-mail"

Retries and a re-send to the same process keep the key, so (a), (b), (c) and a re-send right away pass.
"""
import uuid

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app

PROCESS_TOKEN = uuid.uuid4().hex[:8]  # "unique per sender", drawn when the worker imports the module


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=f"{PROCESS_TOKEN}:{event_id}")
