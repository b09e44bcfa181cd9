"""Moves the hold and the pause after the confirmation (inside the transaction), so the kill never lands between the debit and the confirmation the check means to test. Violates: "Keep the `record(event_id, "hold")` line and the pause after it where they are, **between the debit and the confirmation**: that is where the check kills." Blind review.

Everything else is the right recipe (acks_late, reject_on_worker_lost, one transaction, the
lookup inside it), so every observable of the check still holds; the order of the writes the
statement fixed does not.
"""
import time

from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l02_workers.runs import record
from celerylab.lessons.l02_workers.tasks import app


@app.task(name="ex.pay", acks_late=True, reject_on_worker_lost=True)
def pay(order_id: int, event_id: str) -> str:
    connection = connect()
    with transaction(connection):
        if scalar(connection, "SELECT 1 FROM events WHERE id = ?", (event_id,)):
            return "duplicate"
        execute(connection, "UPDATE orders SET status = 'confirmed' WHERE id = ?", (order_id,))
        execute(connection, "UPDATE coupons SET balance = balance - 10 WHERE order_id = ?", (order_id,))
        record(event_id, "hold")
        time.sleep(1)
        execute(connection, "INSERT INTO events (id, order_id) VALUES (?, ?)", (event_id, order_id))
    return "applied"
