"""Deduplicates the same payment with a module-level set of event ids instead of the events table, so a resend that lands on another pool process, or after the restart of case 1, debits again. Violates: "after each of those cases, the same payment (same `order_id` and same `event_id`) sent again, later (a deploy restarted the worker), ends in `SUCCESS` and changes nothing;" Blind review.

Redelivery after a kill is handled by acks_late + reject_on_worker_lost and the transaction
(the rolled-back run never reached the set anyway); the guard against a resend is process memory.
"""
import time

from celerylab.appdb import connect, execute, transaction
from celerylab.lessons.l02_workers.runs import record
from celerylab.lessons.l02_workers.tasks import app

APPLIED = set()


@app.task(name="ex.pay", acks_late=True, reject_on_worker_lost=True)
def pay(order_id: int, event_id: str) -> str:
    if event_id in APPLIED:
        return "duplicate"
    connection = connect()
    with transaction(connection):
        execute(connection, "UPDATE coupons SET balance = balance - 10 WHERE order_id = ?", (order_id,))
        record(event_id, "hold")
        time.sleep(1)
        execute(connection, "UPDATE orders SET status = 'confirmed' WHERE id = ?", (order_id,))
        execute(connection, "INSERT INTO events (id, order_id) VALUES (?, ?)", (event_id, order_id))
    APPLIED.add(event_id)
    return "applied"
