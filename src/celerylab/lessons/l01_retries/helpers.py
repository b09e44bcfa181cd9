"""Lesson 01's plumbing: its stack, the fakes' controls, waiting for and counting runs, rows, retries and broker messages."""
from __future__ import annotations

import os
import re
import uuid
from contextlib import contextmanager
from datetime import datetime

import redis
from celery.exceptions import TimeoutError as ResultTimeout
from celery.states import READY_STATES

from celerylab import appdb  # noqa: F401  (the notebook reaches it as helpers.appdb)
from celerylab.fakes.control import FakeControl
from celerylab.lessons.l01_retries.leftovers import headers
from celerylab.polling import read_until, until
from celerylab.stack import Stack, WorkerSpec

APP = "celerylab.lessons.l01_retries.tasks"
SERVICES = {"email": "celerylab.fakes.email_provider", "webhook": "celerylab.fakes.webhook"}
SCHEMA = [
    "CREATE TABLE IF NOT EXISTS processed_events (event_id TEXT PRIMARY KEY,"
    " created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)",
    "CREATE TABLE IF NOT EXISTS invoices_blind (order_id INTEGER, amount TEXT, status TEXT)",
    "CREATE TABLE IF NOT EXISTS invoices (order_id INTEGER PRIMARY KEY, amount TEXT, status TEXT)",
    "CREATE TABLE IF NOT EXISTS orders (id INTEGER PRIMARY KEY, status TEXT, views INTEGER)",
    "CREATE TABLE IF NOT EXISTS charges (order_id INTEGER, event_id TEXT)",
    "CREATE TABLE IF NOT EXISTS invoice_charges (order_id INTEGER, invoice_no TEXT, amount TEXT)",
    "CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, email TEXT)",
    "CREATE TABLE IF NOT EXISTS runs (task_id TEXT, name TEXT, retries INTEGER, redelivered INTEGER)",
    "CREATE TABLE IF NOT EXISTS notes_log (task_id TEXT, line TEXT)",
    "CREATE TABLE IF NOT EXISTS claims_plain (event_id TEXT)",
    "CREATE TABLE IF NOT EXISTS claims_unique (event_id TEXT PRIMARY KEY)",
]
FAULTS = {"healthy": None, "slow_ack": {"mode": "slow_ack", "delay": 0.6},
          "slow_reject": {"mode": "slow_reject", "delay": 0.6},
          "fast_reject": {"mode": "slow_reject", "delay": 0.0}}  # the provider's own 504 at once: it gave up first
# What production runs: a prefork pool (one child here, so that `kill_child()` hits the running task).
WORKER = WorkerSpec(pool="prefork", concurrency=1)


def stack_options(**options) -> dict:
    """Stack.start options for this lesson: the fakes and a private database with the lesson's tables."""
    return {"services": SERVICES, "database": SCHEMA, **options}


def start(app: str = APP, **options) -> Stack:
    """The lesson's live stack: broker, one prefork worker, the fake e-mail provider and webhook, the database."""
    options.setdefault("workers", [WORKER])
    return Stack.start(app, **stack_options(**options))


@contextmanager
def database_asked(url: str | None):
    """$CELERYLAB_DATABASE_URL set to `url` (unset for None) while the block runs: a stack reads it as it starts."""
    previous = os.environ.pop(appdb.DATABASE_URL_ENV, None)
    if url:
        os.environ[appdb.DATABASE_URL_ENV] = url
    try:
        yield
    finally:
        os.environ.pop(appdb.DATABASE_URL_ENV, None)
        if previous:
            os.environ[appdb.DATABASE_URL_ENV] = previous


def db(stack: Stack):
    """A connection to the stack's database, for the notebook to count rows."""
    return stack.db()


def email(stack: Stack) -> FakeControl:
    return FakeControl(stack.service_url("email"))


def webhook(stack: Stack) -> FakeControl:
    return FakeControl(stack.service_url("webhook"))


def count(stack: Stack, sql: str, params: tuple = ()):
    """One value from the stack's database (a fresh connection, closed at once)."""
    connection = stack.db()
    try:
        return appdb.scalar(connection, sql, params)
    finally:
        connection.close()


def runs(stack: Stack, task_id: str) -> int:
    """How many times a task with this id started (each run writes a row in `runs`)."""
    return count(stack, "SELECT COUNT(*) FROM runs WHERE task_id = ?", (task_id,))


def redelivered_flags(stack: Stack, task_id: str) -> list[bool]:
    connection = stack.db()
    try:
        rows = appdb.execute(connection, "SELECT redelivered FROM runs WHERE task_id = ? ORDER BY retries",
                             (task_id,)).fetchall()
    finally:
        connection.close()
    return [bool(row[0]) for row in rows]


def wait_value(stack: Stack, sql: str, params: tuple = (), wanted: int = 1, timeout: float = 15) -> int:
    """Block until a count read from the database reaches `wanted`; the count."""
    seen = read_until(lambda: count(stack, sql, params) or 0, lambda n: n >= wanted, timeout, step=0.05)
    if seen < wanted:
        raise TimeoutError(f"{sql} {params}: {seen} after {timeout}s, wanted {wanted}")
    return seen


def wait_runs(stack: Stack, task_id: str, wanted: int = 1, timeout: float = 15) -> int:
    """Block until the task started `wanted` times (a row each); the count."""
    return wait_value(stack, "SELECT COUNT(*) FROM runs WHERE task_id = ?", (task_id,), wanted, timeout)


def broker_messages(stack: Stack, task_id: str, queue: str = "celery") -> dict:
    """This task's messages the broker still holds: waiting in the queue, and delivered but unacknowledged."""
    client = redis.Redis.from_url(stack.broker.url)
    try:
        waiting = client.lrange(stack.namespace + queue, 0, -1)
        unacked = client.hvals(stack.namespace + "unacked")
    finally:
        client.close()
    return {"queue": sum(headers(raw).get("id") == task_id for raw in waiting),
            "unacked": sum(headers(raw).get("id") == task_id for raw in unacked)}


WELCOME_WAIT = 30.0  # seconds run_welcome waits for the task to end


def run_welcome(stack: Stack, task: str, fault: str = "healthy", user_id: int = 1,
                with_key: bool = True, timeout: float = WELCOME_WAIT, delay: float | None = None) -> dict:
    """Send one welcome task under `fault`; wait up to `timeout` for its final state (a task still running then is
    reported in the state it has); count what the provider delivered."""
    provider = email(stack)
    provider.reset()
    if FAULTS[fault]:
        provider.fault(**{**FAULTS[fault], **({"delay": delay} if delay else {})})
    args = (user_id, f"welcome-{user_id}-{uuid.uuid4().hex[:8]}") if with_key else (user_id,)
    result = stack.app.send_task(task, args)
    try:
        result.get(timeout=timeout, propagate=False)
    except ResultTimeout:
        pass  # not ended in time: its state says so
    stats = provider.stats()
    return {"state": result.state, "deliveries": stats["deliveries"], "requests": stats["requests"],
            "task_id": result.id}


def finished(result, timeout: float = 10) -> str:
    """Wait until a result's stored state is final; the state. Reads the stored state instead of waiting on the
    backend's pub/sub: with one id re-used after forget(), a result message can be missed (seen on Celery 5.6 under
    load: a 10 s timeout on a task that had finished)."""
    until(lambda: result.state in READY_STATES, timeout=timeout, step=0.02)
    return result.state


def publish_again(stack: Stack, task: str, args: tuple, times: int = 3, timeout: float = 10) -> list[str]:
    """Publish the same message `times` times, one after the other, with the same task id (the checks' re-run).

    This is not a broker redelivery (no message is restored): it is what any re-run looks like to the task.
    """
    task_id = uuid.uuid4().hex
    states = []
    for _ in range(times):
        result = stack.app.send_task(task, args, task_id=task_id)
        states.append(finished(result, timeout))
        result.forget()
    return states


def countdowns(stack: Stack, task_id: str, retries: int, timeout: float = 10) -> list[float]:
    """The wait Celery chose for each retry of one task, as the worker logs it: `Task …[id] retry: Retry in 2s`."""
    line = re.compile(rf"\[{re.escape(task_id)}\] retry: Retry in (\d+(?:\.\d+)?)s")
    found = read_until(lambda: line.findall(stack.workers[0].logs), lambda seen: len(seen) >= retries,
                      timeout=timeout)
    return [int(seconds) if seconds.isdigit() else float(seconds) for seconds in found]


def settled(stack: Stack, task_id: str, timeout: float = 10) -> None:
    """Wait until the timeline holds the task's final event (events can trail the stored result)."""
    stack.timeline.wait_for_any(("task-succeeded", "task-failed"), task_id, timeout=timeout)


def waits(attempts: list[float]) -> list[float]:
    """Seconds between consecutive attempts."""
    return [round(b - a, 2) for a, b in zip(attempts, attempts[1:])]


def retry_etas(stack: Stack, task_id: str) -> list[float | None]:
    """When each retry's wait was over: the ETA each retried message carried (its `task-received` event), in
    seconds since the task's first start; None for a retry with no wait (a countdown of 0 sends no ETA).
    Compared with the next start, it tells an early start apart from a start event the worker reported late
    (under load a gap between two reported starts can read 2.97 s for a 3 s countdown: the earlier start was
    reported late, not the later one early)."""
    starts = [event.timestamp for event in stack.timeline.events(task_id, ("task-started",))]
    retries = stack.timeline.events(task_id, ("task-received",))[1:]  # the first one is the original send
    if not starts:
        return []
    return [datetime.fromisoformat(event.fields["eta"]).timestamp() - starts[0] if event.fields.get("eta") else None
            for event in retries]


def attempt_record(stack: Stack, result) -> dict:
    """One finished task: its attempts' start times, the countdown Celery chose before each retry and the ETA
    it set, its end."""
    attempts = stack.timeline.attempts(result.id)
    return {"attempts": attempts, "countdowns": countdowns(stack, result.id, len(attempts) - 1),
            "etas": retry_etas(stack, result.id), "state": result.state, "error": type(result.result).__name__}


def outcome(stack: Stack, result, timeout: float = 30) -> dict:
    """A finished task as the lesson prints it: state, exception, runs counted, waits between attempts, countdowns."""
    result.get(timeout=timeout, propagate=False)
    settled(stack, result.id)
    error = type(result.result).__name__ if result.state == "FAILURE" else "-"
    attempts = stack.timeline.attempts(result.id)
    return {"state": result.state, "error": error, "runs": runs(stack, result.id),
            "waits": [round(w, 1) for w in waits(attempts)],
            "countdowns": countdowns(stack, result.id, len(attempts) - 1)}
