"""Remembers sent events in a marker file on the worker machine's /tmp: a deploy to another machine/container (or a second worker host) sends the e-mail again. Violates: "(d) the same event sent again as a **new task** ..., later — after a deploy replaced the worker with a new one, on another machine (nothing the old one kept in memory or on its disk is there) ... —, delivers no other e-mail" Blind review.
"""
import os

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app

SENT_DIR = "/tmp/celerylab-welcome-sent"


@app.task(name="ex.welcome", bind=True, autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False,
          max_retries=3)
def welcome(self, user_id: int, event_id: str) -> str:
    marker = os.path.join(SENT_DIR, event_id.replace("/", "_"))
    if os.path.exists(marker):
        return "skipped"
    # the task id is the same in every retry: the provider delivers once per attempt chain
    send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=self.request.id)
    os.makedirs(SENT_DIR, exist_ok=True)
    with open(marker, "w") as file:
        file.write(self.request.id)
    return "sent"
