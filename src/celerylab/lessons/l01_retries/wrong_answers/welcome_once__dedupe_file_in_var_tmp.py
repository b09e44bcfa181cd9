"""Dedupe of new tasks kept in a file on the worker's own disk (provider key = task id): a new machine sends again. Violates: "nothing the old one kept in memory or on its disk is there". Blind review."""
import json
import os

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app

SENT = "/var/tmp/celerylab_welcome_sent.json"


def _load() -> set:
    try:
        with open(SENT) as file:
            return set(json.load(file))
    except (OSError, ValueError):
        return set()


@app.task(name="ex.welcome", bind=True, autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False,
          max_retries=3)
def welcome(self, user_id: int, event_id: str) -> dict:
    sent = _load()
    if event_id in sent:
        return {"skipped": event_id}
    receipt = send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=self.request.id)
    sent.add(event_id)
    with open(SENT, "w") as file:
        json.dump(sorted(sent), file)
    return receipt
