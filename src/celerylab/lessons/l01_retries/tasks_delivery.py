"""Lesson 01's tasks for what Celery guarantees: runs counted in the database, a kill, a real redelivery."""
from __future__ import annotations

import time

from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l01_retries.tasks import app, count_run


@app.task(name="l01.slow_step", bind=True)
def slow_step(self, seconds: float) -> str:
    """Count the run, then work for `seconds`: long enough to be killed in the middle."""
    count_run(self)
    time.sleep(seconds)
    return "done"


@app.task(name="l01.boom", bind=True)
def boom(self) -> None:
    """Count the run, then fail, with no retry policy at all."""
    count_run(self)
    raise ValueError("boom")


@app.task(name="l01.pay_and_count", bind=True, acks_late=True, reject_on_worker_lost=True)
def pay_and_count(self, order_id: int, amount: str, seconds: float) -> str:
    """Commit two writes (an upsert and an increment), then keep working: a kill now repeats both."""
    count_run(self)
    connection = connect()
    with transaction(connection):
        execute(connection, "INSERT INTO invoices (order_id, amount, status) VALUES (?, ?, 'charged') "
                "ON CONFLICT (order_id) DO UPDATE SET status = excluded.status", (order_id, amount))
        execute(connection, "UPDATE orders SET views = views + 1 WHERE id = ?", (order_id,))
    time.sleep(seconds)
    return "done"


@app.task(name="l01.read_user")
def read_user(user_id: int):
    """What a task sent by a web request sees of the user that request is creating."""
    return scalar(connect(), "SELECT email FROM users WHERE id = ?", (user_id,))
