"""Moves the hold above every write and drops the transaction (autocommit): the kill can no longer land between the debit and the confirmation, and the writes do not live or die together. Violates: "Keep the record(event_id, "hold") line and the pause after it where they are, between the debit and the confirmation" and requirement 4."""
import time

from celerylab.appdb import connect, execute, scalar
from celerylab.lessons.l02_workers.runs import record
from celerylab.lessons.l02_workers.tasks import app


@app.task(name="ex.pay", acks_late=True, reject_on_worker_lost=True)
def pay(order_id: int, event_id: str) -> str:
    connection = connect()
    try:
        record(event_id, "hold")
        time.sleep(1)
        if scalar(connection, "SELECT 1 FROM events WHERE id = ?", (event_id,)):
            return "duplicate"
        execute(connection, "UPDATE coupons SET balance = balance - 10 WHERE order_id = ?", (order_id,))
        execute(connection, "UPDATE orders SET status = 'confirmed' WHERE id = ?", (order_id,))
        execute(connection, "INSERT INTO events (id, order_id) VALUES (?, ?)", (event_id, order_id))
        return "applied"
    finally:
        connection.close()
