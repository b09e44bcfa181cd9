"""Namespaces the provider key with the mtime of the deployed module, so the same event resent after a deploy (a fresh copy of the code, on another machine) carries another key and is delivered again. Violates: "(d) the same event sent again as a new task ... after a deploy replaced the worker with a new one, on another machine ... delivers no other e-mail". Blind review."""
import hashlib
import os

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app

TEMPLATE_VERSION = int(os.path.getmtime(__file__))  # a new template gets new keys


def make_key(event_id):
    return f"welcome:{TEMPLATE_VERSION}:{event_id}"


@app.task(name="ex.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False, max_retries=3)
def welcome(user_id: int, event_id: str) -> dict:
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=make_key(event_id))
