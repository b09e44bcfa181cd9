"""When the retries run out, a background thread in the worker tries the provider once more five minutes later (same key), so (e) ends in FAILURE yet an e-mail may still go out. Violates: "with no other retries: nothing else calls the provider or runs the task again". Blind review."""
import threading

from celery.exceptions import MaxRetriesExceededError  # noqa: F401  (documentation of intent)

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


def _last_chance(to: str, key: str) -> None:
    try:
        send_email(to, "Bem-vindo! / Welcome!", idempotency_key=key)
    except Exception:
        pass


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3,
          bind=True)
def welcome(self, user_id: int, event_id: str) -> dict:
    key = f"welcome:{event_id}"
    try:
        return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=key)
    except TimeoutError:
        if self.request.retries >= self.max_retries:
            timer = threading.Timer(300, _last_chance, (address(user_id), key))
            timer.daemon = True
            timer.start()
        raise
