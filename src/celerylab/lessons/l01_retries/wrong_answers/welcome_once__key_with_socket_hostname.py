"""Key includes the worker machine's hostname (socket.gethostname): after a deploy on another machine the same event delivers again. Violates: "(d) the same event sent again as a **new task** (another task id, the same `event_id`), later — after a deploy replaced the worker with a new one, on another machine (another host name, its clock on another day; nothing the old one kept in memory or on its disk is there, nor what the broker's Redis held), minutes, days or months after the first sending —, delivers no other e-mail" Blind review."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app

import socket


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!",
                      idempotency_key=f"{socket.gethostname()}:{event_id}")
