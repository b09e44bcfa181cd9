"""Decides INSERT vs UPDATE from a worker-memory set of orders: a restarted or different worker process INSERTs again and fails. Violates: "The same message processed three times (same task id) must end in `SUCCESS` all three times and leave **one** row" Blind review.
"""
from celerylab.appdb import connect, execute
from celerylab.lessons.l01_retries.tasks import app

SEEN: set = set()


@app.task(name="ex.record_payment")
def record_payment(order_id: int, amount: str) -> None:
    connection = connect()
    if order_id in SEEN:
        execute(connection, "UPDATE invoices SET amount = ? WHERE order_id = ?", (amount, order_id))
        return
    execute(connection, "INSERT INTO invoices (order_id, amount, status) VALUES (?, ?, 'charged')",
            (order_id, amount))
    SEEN.add(order_id)
