"""Lesson 02's Celery app: tasks that record each run, a payment in one transaction, tasks with time limits."""
from __future__ import annotations

import os
import time

from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import task_postrun

from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l02_workers.runs import record
from celerylab.stack.appconfig import create_app

app = create_app("l02_workers")


def started(task, key: str) -> None:
    """Record one start of `task` under `key`: which process, redelivered by the broker, which retry."""
    info = task.request.delivery_info or {}
    record(key, "start", redelivered=bool(info.get("redelivered")), retries=task.request.retries)


@app.task(name="l02.work", bind=True)
def work(self, key: str, seconds: float = 1.0) -> str:
    """Record the start, work for `seconds`, record the end."""
    started(self, key)
    time.sleep(seconds)
    record(key, "end")
    return key


@app.task(name="l02.work_retry_lost", bind=True, default_retry_delay=0)
def work_retry_lost(self, key: str, seconds: float = 1.0) -> str:
    """The same work; default_retry_delay=0 (Celery's default is 180 s) for task_retry_on_worker_lost."""
    started(self, key)
    time.sleep(seconds)
    record(key, "end")
    return key


def apply_payment(order_id: int, event_id: str, hold: float) -> str:
    """Debit the coupon, confirm the order, record the event: one transaction, a pause before COMMIT."""
    connection = connect()
    try:
        with transaction(connection):
            if scalar(connection, "SELECT 1 FROM events WHERE id = ?", (event_id,)):
                return "duplicate"
            execute(connection, "UPDATE coupons SET balance = balance - 10 WHERE order_id = ?", (order_id,))
            execute(connection, "UPDATE orders SET status = 'confirmed' WHERE id = ?", (order_id,))
            execute(connection, "INSERT INTO events (id, order_id) VALUES (?, ?)", (event_id, order_id))
            record(event_id, "hold")
            time.sleep(hold)  # the worker dies here, before COMMIT
        return "applied"
    finally:
        connection.close()


@app.task(name="l02.pay", bind=True)
def pay(self, order_id: int, event_id: str, hold: float = 1.0) -> str:
    """The notes' scenario 1 as the notes wrote it: the default (early) ack."""
    started(self, event_id)
    return apply_payment(order_id, event_id, hold)


@app.task(name="l02.pay_late", bind=True, acks_late=True)
def pay_late(self, order_id: int, event_id: str, hold: float = 1.0) -> str:
    """The same transaction, acknowledged only after it returns."""
    started(self, event_id)
    return apply_payment(order_id, event_id, hold)


@app.task(name="l02.soft_limited", bind=True, soft_time_limit=1)
def soft_limited(self, key: str, seconds: float = 2.0) -> str:
    """Work for `seconds` with a 1 s soft limit; clean up and re-raise when it hits."""
    started(self, key)
    try:
        time.sleep(seconds)
    except SoftTimeLimitExceeded:
        record(key, "cleanup")
        raise
    record(key, "end")
    return key


@app.task(name="l02.hard_limited", bind=True, time_limit=1)
def hard_limited(self, key: str, seconds: float = 2.0) -> str:
    """Work for `seconds` with a 1 s hard limit."""
    started(self, key)
    time.sleep(seconds)
    record(key, "end")
    return key


@app.task(name="l02.exit_after_success", bind=True)
def exit_after_success(self, key: str) -> str:
    """Return at once; on its first delivery, its pool child then dies (see `exit_after_first_success`)."""
    started(self, key)
    return key


@task_postrun.connect
def exit_after_first_success(sender=None, state=None, **_) -> None:
    """The pool child of `l02.exit_after_success` exits once SUCCESS is stored, before it reports back: first run only."""
    if getattr(sender, "name", None) == "l02.exit_after_success" and state == "SUCCESS":
        if not (sender.request.delivery_info or {}).get("redelivered"):
            os._exit(1)
