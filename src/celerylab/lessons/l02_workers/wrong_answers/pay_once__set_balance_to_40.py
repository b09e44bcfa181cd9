"""Replaces the debit with an assignment tuned to the example (SET balance = 40), idempotent by construction but wrong for any coupon that does not start at 50. Violates: "`ex.pay(order_id, event_id)` debits 10 from the order's coupon, confirms the order and records the event (tables `orders`, `coupons`, `events` of the stack's database, as in section 5)." Blind review.

"Setting instead of incrementing" from lesson 01, applied to a debit: with the check's 50 the
balance ends at 40 however many times it runs.
"""
import time

from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l02_workers.runs import record
from celerylab.lessons.l02_workers.tasks import app

PAID_BALANCE = 40


@app.task(name="ex.pay", acks_late=True, reject_on_worker_lost=True)
def pay(order_id: int, event_id: str) -> str:
    connection = connect()
    with transaction(connection):
        if scalar(connection, "SELECT 1 FROM events WHERE id = ?", (event_id,)):
            return "duplicate"
        execute(connection, "UPDATE coupons SET balance = ? WHERE order_id = ?", (PAID_BALANCE, order_id))
        record(event_id, "hold")
        time.sleep(1)
        execute(connection, "UPDATE orders SET status = 'confirmed' WHERE id = ?", (order_id,))
        execute(connection, "INSERT INTO events (id, order_id) VALUES (?, ?)", (event_id, order_id))
    return "applied"
