"""Lesson 01's notebook helpers: a stack with its fakes and database, scenarios that count deliveries."""
from __future__ import annotations

import uuid

from celerylab import appdb  # noqa: F401  (the notebook reaches it as helpers.appdb)
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


def stack_options(**options) -> dict:
    """Stack.start options for this lesson: fakes, a private database with the lesson's tables, a solo worker."""
    return {"services": SERVICES, "database": SCHEMA, **options}


def start(app: str = APP, **options) -> Stack:
    """The lesson's live stack: broker, one worker, the fake e-mail provider and webhook, the database."""
    return Stack.start(app, **stack_options(**options))


def db(stack: Stack):
    """A connection to the stack's database, for the notebook to count rows."""
    return stack.db()


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
