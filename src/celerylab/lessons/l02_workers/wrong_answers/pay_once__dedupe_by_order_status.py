"""Decides "already paid" from the order's status instead of the event: the same event again is skipped as it should be, but any other event for an order already confirmed (a second payment, a retry of the business flow with a new event id) is dropped without debiting or recording anything, and still ends in SUCCESS. Violates: "`ex.pay(order_id, event_id)` debits 10 from the order's coupon, confirms the order and records the event". Blind review."""
import time

from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l02_workers.runs import record
from celerylab.lessons.l02_workers.tasks import app


@app.task(name="ex.pay", acks_late=True, reject_on_worker_lost=True)
def pay(order_id: int, event_id: str) -> str:
    connection = connect()
    try:
        with transaction(connection):
            if scalar(connection, "SELECT status FROM orders WHERE id = ?", (order_id,)) == "confirmed":
                return "duplicate"  # the order is paid already
            execute(connection, "UPDATE coupons SET balance = balance - 10 WHERE order_id = ?", (order_id,))
            record(event_id, "hold")
            time.sleep(1)
            execute(connection, "UPDATE orders SET status = 'confirmed' WHERE id = ?", (order_id,))
            execute(connection, "INSERT INTO events (id, order_id) VALUES (?, ?)", (event_id, order_id))
        return "applied"
    finally:
        connection.close()
