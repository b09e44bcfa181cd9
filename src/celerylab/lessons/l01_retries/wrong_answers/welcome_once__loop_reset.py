"""Retries the call inside the task, in a loop, when the connection is reset (a fault the check never injects). Violates: "nothing else calls the provider or runs the task again — no self.retry of your own, no loop". Blind review."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    for attempt in range(3):
        try:
            return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=f"welcome:{event_id}")
        except ConnectionResetError:  # the socket dropped under us: just call again
            if attempt == 2:
                raise
