"""Provider key as in the answer, but an outage (503 or connection refused) re-enqueues the same event as a new task in 30 s before failing. Violates: "with no other retries: nothing else calls the provider or runs the task again". Blind review."""
from celerylab.fakes.clients import ProviderUnavailable, send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    try:
        return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=event_id)
    except (ProviderUnavailable, ConnectionError):
        welcome.apply_async((user_id, event_id), countdown=30)  # try again once the outage is over
        raise
