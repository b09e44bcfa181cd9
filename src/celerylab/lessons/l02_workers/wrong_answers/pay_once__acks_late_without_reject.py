"""acks_late and a transaction, but no reject_on_worker_lost: when only the pool child dies the message is acked as FAILURE and the order stays pending. Violates: "2. the same, killing only the pool's child process (the worker survives; no new worker; a 30 s `visibility_timeout`, so the sweep saves nothing here);" Blind review.
"""
import time

from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l02_workers.runs import record
from celerylab.lessons.l02_workers.tasks import app


@app.task(name="ex.pay", acks_late=True)
def pay(order_id: int, event_id: str) -> str:
    connection = connect()
    with transaction(connection):
        if scalar(connection, "SELECT 1 FROM events WHERE id = ?", (event_id,)):
            return "duplicate"
        execute(connection, "UPDATE coupons SET balance = balance - 10 WHERE order_id = ?", (order_id,))
        record(event_id, "hold")
        time.sleep(1)
        execute(connection, "UPDATE orders SET status = 'confirmed' WHERE id = ?", (order_id,))
        execute(connection, "INSERT INTO events (id, order_id) VALUES (?, ?)", (event_id, order_id))
    return "applied"
