"""Lesson 01's retry options from Celery's Tasks guide, each on a task that fails on purpose."""
from __future__ import annotations

from celery.exceptions import MaxRetriesExceededError

from celerylab.appdb import connect, execute
from celerylab.lessons.l01_retries.tasks import app, count_run


class Permanent(ConnectionError):
    """A ConnectionError that waiting will not fix (say, the host name does not exist)."""


@app.task(name="l01.no_delay_set", autoretry_for=(ConnectionError,), max_retries=1)
def no_delay_set() -> None:
    """autoretry_for and nothing else: the wait is default_retry_delay."""
    raise ConnectionError("down")


@app.task(name="l01.fixed_delay", bind=True, autoretry_for=(ConnectionError,), default_retry_delay=1,
          max_retries=2)
def fixed_delay(self) -> None:
    count_run(self)
    raise ConnectionError("down")


@app.task(name="l01.kwargs_and_backoff", bind=True, autoretry_for=(ConnectionError,),
          retry_kwargs={"max_retries": 2, "countdown": 5}, retry_backoff=True, retry_jitter=False)
def kwargs_and_backoff(self) -> None:
    count_run(self)
    raise ConnectionError("down")


@app.task(name="l01.fractional_backoff", bind=True, autoretry_for=(ConnectionError,), retry_backoff=2.7,
          retry_jitter=False, max_retries=1)
def fractional_backoff(self) -> None:
    count_run(self)
    raise ConnectionError("down")


@app.task(name="l01.never_gives_up", bind=True, autoretry_for=(ConnectionError,), max_retries=None,
          default_retry_delay=0.2)
def never_gives_up(self, failures: int) -> str:
    count_run(self)
    if self.request.retries < failures:
        raise ConnectionError("down")
    return "done"


@app.task(name="l01.skip_permanent", bind=True, autoretry_for=(ConnectionError,),
          dont_autoretry_for=(Permanent,), default_retry_delay=0.2, max_retries=3)
def skip_permanent(self, permanent: bool) -> None:
    count_run(self)
    raise (Permanent if permanent else ConnectionError)("down")


def note(task, text: str) -> None:
    execute(connect(), "INSERT INTO notes_log (task_id, line) VALUES (?, ?)", (task.request.id, text))


@app.task(name="l01.notes_manual_retry", bind=True, max_retries=2)
def notes_manual_retry(self) -> None:
    """The course notes' pattern: catch MaxRetriesExceededError around self.retry(exc=exc)."""
    count_run(self)
    try:
        raise ConnectionError("down")
    except ConnectionError as exc:
        try:
            raise self.retry(exc=exc, countdown=0.2)
        except MaxRetriesExceededError:
            note(self, "retries exhausted")
            raise


@app.task(name="l01.retry_without_exc", bind=True, max_retries=2)
def retry_without_exc(self) -> None:
    """The same, calling self.retry() with no exception."""
    count_run(self)
    try:
        raise self.retry(countdown=0.2)
    except MaxRetriesExceededError:
        note(self, "retries exhausted")
        raise
