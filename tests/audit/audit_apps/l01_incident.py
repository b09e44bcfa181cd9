"""Lesson 01's incident: retry options as the lesson measures them going wrong."""
from celery.exceptions import MaxRetriesExceededError

from audit_apps.base import make_app

app = make_app("l01")


@app.task(name="l01.welcome_any_error", autoretry_for=(Exception,), max_retries=2, retry_backoff=True)
def welcome_any_error(address: str):
    """A 422 (a permanent error) retried until the retries run out."""


@app.task(name="l01.no_delay_set", autoretry_for=(ConnectionError,), max_retries=1)
def no_delay_set():
    """autoretry_for and nothing else: the wait is default_retry_delay, 180 s."""


@app.task(name="l01.kwargs_and_backoff", autoretry_for=(ConnectionError,), retry_backoff=True,
          retry_kwargs={"max_retries": 2, "countdown": 5})
def kwargs_and_backoff():
    """The countdown in retry_kwargs is overwritten by the backoff."""


@app.task(name="l01.fractional_backoff", autoretry_for=(ConnectionError,), retry_backoff=2.7, max_retries=1)
def fractional_backoff():
    """Waits 2 s, not 2.7."""


@app.task(name="l01.never_gives_up", autoretry_for=(ConnectionError,), max_retries=None, retry_backoff=True)
def never_gives_up():
    """Retries forever."""


@app.task(name="l01.notes_manual_retry", bind=True, max_retries=2)
def notes_manual_retry(self):
    """The notes' "retries exhausted" log: with exc=, the except never runs."""
    try:
        raise ConnectionError("provider down")
    except ConnectionError as exc:
        try:
            raise self.retry(exc=exc, countdown=1)
        except MaxRetriesExceededError:
            print("retries exhausted")
            raise
