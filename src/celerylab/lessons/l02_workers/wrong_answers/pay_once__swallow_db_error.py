"""Wraps the confirmation and the event's row in try/except Exception inside the transaction and returns "refused": the block then ends normally and COMMITs the debit alone. Violates: "if the database refuses the confirmation (the check closes order 3 with a trigger), the pause has happened — the debit came first — and nothing stays written: the coupon keeps its balance and there is no event" Blind review.
It passed while the check's refusal could undo the whole transaction by itself; a database refuses a statement and leaves the transaction open.
"""
import time

from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l02_workers.runs import record
from celerylab.lessons.l02_workers.tasks import app


@app.task(name="ex.pay", acks_late=True, reject_on_worker_lost=True)
def pay(order_id: int, event_id: str) -> str:
    connection = connect()
    try:
        with transaction(connection):
            if scalar(connection, "SELECT 1 FROM events WHERE id = ?", (event_id,)):
                return "duplicate"
            execute(connection, "UPDATE coupons SET balance = balance - 10 WHERE order_id = ?", (order_id,))
            record(event_id, "hold")
            time.sleep(1)
            try:
                execute(connection, "UPDATE orders SET status = 'confirmed' WHERE id = ?", (order_id,))
                execute(connection, "INSERT INTO events (id, order_id) VALUES (?, ?)", (event_id, order_id))
            except Exception:
                return "refused"
        return "applied"
    finally:
        connection.close()
