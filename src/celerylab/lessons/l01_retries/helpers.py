"""Lesson 01's notebook helpers: a stack with its fakes and database, scenarios that count deliveries."""
from __future__ import annotations

import os
import uuid

from celerylab import appdb
from celerylab.fakes.control import FakeControl
from celerylab.stack import Stack

APP = "celerylab.lessons.l01_retries.tasks"
SERVICES = {"email": "celerylab.fakes.email_provider", "webhook": "celerylab.fakes.webhook"}
SCHEMA = [
    "CREATE TABLE IF NOT EXISTS processed_events (event_id TEXT PRIMARY KEY,"
    " created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)",
    "CREATE TABLE IF NOT EXISTS invoices_blind (order_id INTEGER, amount TEXT, status TEXT)",
    "CREATE TABLE IF NOT EXISTS invoices (order_id INTEGER PRIMARY KEY, amount TEXT, status TEXT)",
    "CREATE TABLE IF NOT EXISTS orders (id INTEGER PRIMARY KEY, status TEXT, views INTEGER)",
    "CREATE TABLE IF NOT EXISTS charges (order_id INTEGER, event_id TEXT)",
]
FAULTS = {"healthy": None, "slow_ack": {"mode": "slow_ack", "delay": 0.6},
          "slow_reject": {"mode": "slow_reject", "delay": 0.6}}


def database_url(stack_id: str) -> str:
    """SQLite in the stack's folder, or a private schema of $CELERYLAB_DATABASE_URL (PostgreSQL)."""
    given = os.environ.get(appdb.DATABASE_URL_ENV)
    if given and appdb.kind(given) == "postgresql":
        schema = f"celerylab_{stack_id}"
        connection = appdb.connect(given)
        appdb.execute(connection, f"CREATE SCHEMA IF NOT EXISTS {schema}")
        connection.close()
        separator = "&" if "?" in given else "?"
        return f"{given}{separator}options=-csearch_path%3D{schema}"
    return "sqlite:///{workdir}/app.db"


def drop_schema(url: str) -> None:
    if appdb.kind(url) == "postgresql" and "search_path%3D" in url:
        schema = url.rsplit("search_path%3D", 1)[1]
        connection = appdb.connect(url)
        appdb.execute(connection, f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        connection.close()


def stack_options(**options) -> dict:
    """Stack.start options for this lesson: fakes, a private database, a solo worker."""
    stack_id = uuid.uuid4().hex[:8]
    url = database_url(stack_id)
    env = {appdb.DATABASE_URL_ENV: url, **options.pop("env", {})}
    return {"services": SERVICES, "env": env, **options}


def prepare(stack: Stack) -> Stack:
    """Create the lesson's tables and arrange for a PostgreSQL schema to be dropped on close."""
    url = stack.process_env()[appdb.DATABASE_URL_ENV]
    connection = appdb.connect(url)
    for statement in SCHEMA:
        appdb.execute(connection, statement)
    connection.close()
    stack.cleanups.append(lambda: drop_schema(url))
    return stack


def start(app: str = APP, **options) -> Stack:
    """The lesson's live stack: broker, one worker, the fake e-mail provider and webhook."""
    return prepare(Stack.start(app, **stack_options(**options)))


def db(stack: Stack):
    """A connection to the stack's database, for the notebook to count rows."""
    return appdb.connect(stack.process_env()[appdb.DATABASE_URL_ENV])


def email(stack: Stack) -> FakeControl:
    return FakeControl(stack.service_url("email"))


def webhook(stack: Stack) -> FakeControl:
    return FakeControl(stack.service_url("webhook"))


def run_welcome(stack: Stack, task: str, fault: str = "healthy", user_id: int = 1,
                with_key: bool = True, timeout: float = 30) -> dict:
    """Send one welcome task under `fault`; wait for its final state; count what the provider delivered."""
    provider = email(stack)
    provider.reset()
    if FAULTS[fault]:
        provider.fault(**FAULTS[fault])
    args = (user_id, f"welcome-{user_id}-{uuid.uuid4().hex[:8]}") if with_key else (user_id,)
    result = stack.app.send_task(task, args)
    result.get(timeout=timeout, propagate=False)
    stats = provider.stats()
    return {"state": result.state, "deliveries": stats["deliveries"], "requests": stats["requests"],
            "task_id": result.id}


def redeliver(stack: Stack, task: str, args: tuple, times: int = 3, timeout: float = 10) -> list[str]:
    """Deliver the same message `times` times (same task id), as a broker redelivery does."""
    task_id = uuid.uuid4().hex
    states = []
    for _ in range(times):
        result = stack.app.send_task(task, args, task_id=task_id)
        result.get(timeout=timeout, propagate=False)
        states.append(result.state)
        result.forget()
    return states
