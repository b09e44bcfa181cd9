"""Lesson 07's Celery app: a task that records its run, a slow one, and one that leaks memory."""
from __future__ import annotations

import os
import time

from celerylab.stack.appconfig import create_app

app = create_app("l07_resilience")
_kept: list[bytes] = []  # the leak: a module-level list that only grows, like a cache nobody evicts
# A bigger fresh child, as on another machine: MB held from import on (before the pool forks), 0 unless asked for.
# The variable is the check's, read once and taken out of the environment: what imports this module next (the
# learner's configuration) cannot size a limit on it, as no setting on a real other machine could.
BALLAST_ENV = "CELERYLAB_L07_BALLAST_MB"
_ballast = os.urandom(1024) * (1024 * int(os.environ.pop(BALLAST_ENV, "0")))


@app.task(name="l07.echo")
def echo(text: str) -> str:
    """Return what it was sent: the worker is up and consuming from the real queue."""
    return text


@app.task(name="l07.work", bind=True)
def work(self, seconds: float) -> int:
    """Busy for `seconds`, then record this run in the stack's database (which outlives the broker)."""
    from celerylab.appdb import connect, execute

    time.sleep(seconds)
    connection = connect()
    try:
        execute(connection, "INSERT INTO runs (task_id, pid) VALUES (?, ?)", (self.request.id, os.getpid()))
    finally:
        connection.close()
    return os.getpid()


@app.task(name="l07.leaky_report")
def leaky_report(megabytes: int) -> int:
    """Build a report and keep `megabytes` MB of it in a module-level cache that is never cleared."""
    _kept.append(os.urandom(1024) * (megabytes * 1024))
    return os.getpid()


@app.task(name="l07.place_order")
def place_order(order_id: int) -> None:
    """Process an order: record it in the stack's database (what the exercise counts)."""
    from celerylab.appdb import connect, execute

    connection = connect()
    try:
        execute(connection, "INSERT INTO orders (order_id, pid) VALUES (?, ?)", (order_id, os.getpid()))
    finally:
        connection.close()
