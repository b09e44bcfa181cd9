"""Answers to lesson 01's exercises 1 and 2, for the claim tests' worker only: tests that measure the lesson's claims
(test_claims_idempotency.py, test_claims_retries.py) start a worker that includes this module (helpers.CLAIMS_WORKER,
`--include`). No task module, helper or notebook imports it: a learner pointed to tasks.py never meets it."""
from __future__ import annotations

from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app

#: The tasks this module registers: test_answers_hidden.py fails if a module a learner is pointed to registers them.
NAMES = ("l01.welcome_keyed", "l01.welcome_narrow")


@app.task(name="l01.welcome_keyed", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False,
          max_retries=3)
def welcome_keyed(user_id: int, event_id: str) -> dict:
    """Hand the key to the provider: it delivers once per key (exercise 1's answer)."""
    return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=event_id)


@app.task(name="l01.welcome_narrow", autoretry_for=(TimeoutError, ConnectionError), retry_backoff=1,
          retry_jitter=False, max_retries=2)
def welcome_narrow(to: str) -> dict:
    """Only transient failures are retried (exercise 2's answer)."""
    return send_email(to, "Bem-vindo! / Welcome!")
