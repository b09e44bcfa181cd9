"""A transaction without acks_late: the message is acknowledged before the task runs, so a worker killed in the pause loses the payment (the order stays pending). Violates: "within 12 s the order is confirmed"."""
import time

from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l02_workers.runs import record
from celerylab.lessons.l02_workers.tasks import app


@app.task(name="ex.pay")
def pay(order_id: int, event_id: str) -> str:
    connection = connect()
    try:
        with transaction(connection):
            if scalar(connection, "SELECT 1 FROM events WHERE id = ?", (event_id,)):
                return "duplicate"
            execute(connection, "UPDATE coupons SET balance = balance - 10 WHERE order_id = ?", (order_id,))
            record(event_id, "hold")
            time.sleep(1)
            execute(connection, "UPDATE orders SET status = 'confirmed' WHERE id = ?", (order_id,))
            execute(connection, "INSERT INTO events (id, order_id) VALUES (?, ?)", (event_id, order_id))
        return "applied"
    finally:
        connection.close()
