"""Remembers sent event ids in a worker-memory set and sends without a provider key: the retry after a late answer sends again. Violates: "(b) the provider accepts the e-mail and answers after the client's timeout;" Blind review.
"""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app

SENT: dict = {}


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    if event_id in SENT:
        return SENT[event_id]
    receipt = send_email(address(user_id), "Bem-vindo! / Welcome!")
    SENT[event_id] = receipt
    return receipt
