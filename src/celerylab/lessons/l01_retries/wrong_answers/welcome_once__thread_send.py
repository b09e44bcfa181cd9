"""The send runs in a background thread with a 10-minute client timeout; the task waits 5 s for it, then ends in SUCCESS with the thread still waiting for a late answer. Violates: "no thread or process the task leaves running after it ended". Blind review."""
import threading

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    outcome: dict = {}

    def send() -> None:
        try:
            outcome["receipt"] = send_email(address(user_id), "Bem-vindo! / Welcome!",
                                            idempotency_key=f"welcome:{user_id}:{event_id}", timeout=600)
        except BaseException as error:  # noqa: BLE001
            outcome["error"] = error

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    sender.join(5)
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("receipt", {"id": None, "pending": True})
