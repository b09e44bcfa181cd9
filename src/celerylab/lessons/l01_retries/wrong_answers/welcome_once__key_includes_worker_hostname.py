"""Namespaces the Idempotency-Key with the worker's node name (self.request.hostname): a retry picked up by another worker, or the resend after a deploy that starts the worker under another name (a new pod or host), uses a new key and delivers a second e-mail; with a single worker restarted under the same name the check sees one e-mail. Violates: "(d) the same event sent again as a **new task** (another task id, the same `event_id`), later — after a deploy restarted the worker, minutes or days after the first sending —, delivers no other e-mail". Blind review."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", bind=True, autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False,
          max_retries=3)
def welcome(self, user_id: int, event_id: str) -> dict:
    # keys of different deployments must not clash at the provider
    key = f"{self.request.hostname}:{event_id}"
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=key)
