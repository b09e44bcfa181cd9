"""Lesson 01's Celery app: the welcome e-mail incident, the notes' fix and at most once, and the retry policies."""
from __future__ import annotations

from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.fakes.clients import RateLimited, call_webhook, send_email
from celerylab.lessons.l01_retries import connects
from celerylab.stack import database_clock
from celerylab.stack.appconfig import create_app

app = create_app("l01_retries")
connects.install()  # only where a check asks (a worker it watches): before the answer's own code runs
database_clock.install()  # only where a check asks (a worker months later): SQLite's clock moves with it


def address(user_id: int) -> str:
    return f"user{user_id}@example.com"


def already_processed(connection, event_id: str) -> bool:
    return scalar(connection, "SELECT 1 FROM processed_events WHERE event_id = ?", (event_id,)) is not None


def remember(connection, event_id: str) -> None:
    execute(connection, "INSERT INTO processed_events (event_id) VALUES (?)", (event_id,))


def count_run(task) -> None:
    """One row per run of a task: its id, which retry this is, and whether the broker redelivered it."""
    redelivered = bool((task.request.delivery_info or {}).get("redelivered"))
    execute(connect(), "INSERT INTO runs (task_id, name, retries, redelivered) VALUES (?, ?, ?, ?)",
            (task.request.id, task.name, task.request.retries, int(redelivered)))


@app.task(name="l01.welcome", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False,
          max_retries=3)
def welcome(user_id: int) -> dict:
    """The incident: send, and let autoretry send again when the answer is late."""
    return send_email(address(user_id), "Bem-vindo! / Welcome!")


@app.task(name="l01.welcome_checked", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False,
          max_retries=3)
def welcome_checked(user_id: int, event_id: str) -> str:
    """The notes' fix: look the key up, send, record the key, all in one transaction."""
    connection = connect()
    with transaction(connection):
        if already_processed(connection, event_id):
            return "skipped"
        send_email(address(user_id), "Bem-vindo! / Welcome!")
        remember(connection, event_id)
    return "sent"


@app.task(name="l01.welcome_at_most_once", autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False,
          max_retries=3)
def welcome_at_most_once(user_id: int, event_id: str) -> str:
    """Record the key and commit BEFORE sending: a retry never sends twice, and may never send."""
    connection = connect()
    with transaction(connection):
        if already_processed(connection, event_id):
            return "skipped"
        remember(connection, event_id)
    send_email(address(user_id), "Bem-vindo! / Welcome!")
    return "sent"


@app.task(name="l01.flaky", autoretry_for=(ConnectionError,), retry_backoff=1, retry_jitter=False,
          max_retries=3)
def flaky(user_id: int) -> dict:
    """Retry mechanics without jitter: waits of exactly 1, 2, 4 s."""
    return send_email(address(user_id), "ping")


@app.task(name="l01.flaky_jitter", autoretry_for=(ConnectionError,), retry_backoff=1, retry_jitter=True,
          max_retries=3)
def flaky_jitter(user_id: int) -> dict:
    """The same with jitter: each wait drawn between 0 and 1, 2, 4 s."""
    return send_email(address(user_id), "ping")


@app.task(name="l01.welcome_any_error", autoretry_for=(Exception,), retry_backoff=1, retry_jitter=False,
          max_retries=2)
def welcome_any_error(to: str) -> dict:
    """autoretry_for=(Exception,): a refused address is retried for nothing."""
    return send_email(to, "Bem-vindo! / Welcome!")


@app.task(name="l01.notify_webhook", bind=True, max_retries=5)
def notify_webhook(self, payload: dict) -> dict:
    """A manual retry that waits exactly what the webhook's Retry-After asks."""
    try:
        return call_webhook(payload)
    except RateLimited as limited:
        raise self.retry(exc=limited, countdown=limited.retry_after)


# The worker loads this module only: the other task modules register on the same app.
from celerylab.lessons.l01_retries import tasks_db, tasks_delivery, tasks_options  # noqa: E402,F401
