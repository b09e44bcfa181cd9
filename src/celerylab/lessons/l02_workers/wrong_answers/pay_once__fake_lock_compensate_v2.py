"""v2 (PostgreSQL-aware lock): debit autocommitted (no transaction), a Redis marker to skip the debit on redelivery, a compensating credit on error, and a dummy BEGIN IMMEDIATE on a second connection during the pause so the "another writer waits" probe sees a lock. Violates: "the payment's writes live or die together: during the pause, with the debit made and the confirmation not yet, another connection trying to write to the database waits;" Blind review.
"""
import os
import time

import redis

from celerylab.appdb import connect, execute, kind, scalar
from celerylab.lessons.l02_workers.runs import record
from celerylab.lessons.l02_workers.tasks import app
from celerylab.stack.appconfig import BROKER_ENV, NAMESPACE_ENV


@app.task(name="ex.pay", acks_late=True, reject_on_worker_lost=True)
def pay(order_id: int, event_id: str) -> str:
    marks = redis.Redis.from_url(os.environ[BROKER_ENV])
    mark = f"{os.environ.get(NAMESPACE_ENV, '')}debited:{event_id}"
    connection = connect()
    if scalar(connection, "SELECT 1 FROM events WHERE id = ?", (event_id,)):
        return "duplicate"
    debited_now = False
    if not marks.exists(mark):
        execute(connection, "UPDATE coupons SET balance = balance - 10 WHERE order_id = ?", (order_id,))
        marks.set(mark, 1)
        debited_now = True
    locker = connect()
    if kind() == "sqlite":
        execute(locker, "BEGIN IMMEDIATE")
    else:
        locker.autocommit = False
        execute(locker, "LOCK TABLE orders, coupons, events IN EXCLUSIVE MODE")
    record(event_id, "hold")
    time.sleep(1)
    locker.rollback() if kind() != "sqlite" else execute(locker, "ROLLBACK")
    try:
        execute(connection, "UPDATE orders SET status = 'confirmed' WHERE id = ?", (order_id,))
        execute(connection, "INSERT INTO events (id, order_id) VALUES (?, ?)", (event_id, order_id))
    except Exception:
        execute(connection, "UPDATE coupons SET balance = balance + 10 WHERE order_id = ?", (order_id,))
        marks.delete(mark)
        try:
            execute(connection, "UPDATE orders SET status = 'pending' WHERE id = ?", (order_id,))
        except Exception:
            pass
        raise
    return "applied"
