"""Debit and confirmation in one transaction, but the event is recorded after the COMMIT, in its own statement: a kill (or a refusal) between the two leaves a confirmed, debited order with no event, and the redelivery/re-send debits again. Violates: "the same holds if the database refuses the event's row (a trigger on the `events` table, for order 2): the order stays `pending` and the coupon at 50." Blind review.
The check used to kill only during the pause, inside the transaction, so the write after the COMMIT was never cut.
"""
import time

from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l02_workers.runs import record
from celerylab.lessons.l02_workers.tasks import app


@app.task(name="ex.pay", acks_late=True, reject_on_worker_lost=True)
def pay(order_id: int, event_id: str) -> str:
    connection = connect()
    if scalar(connection, "SELECT 1 FROM events WHERE id = ?", (event_id,)):
        return "duplicate"
    with transaction(connection):
        execute(connection, "UPDATE coupons SET balance = balance - 10 WHERE order_id = ?", (order_id,))
        record(event_id, "hold")
        time.sleep(1)
        execute(connection, "UPDATE orders SET status = 'confirmed' WHERE id = ?", (order_id,))
    # the payment itself is committed; now remember that this event was handled
    execute(connection, "INSERT INTO events (id, order_id) VALUES (?, ?)", (event_id, order_id))
    return "applied"
