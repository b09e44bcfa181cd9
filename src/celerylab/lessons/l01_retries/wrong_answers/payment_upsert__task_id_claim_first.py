"""Claims the task id in processed_events and then does a blind INSERT, so the three deliveries are fine but the later payment (a new task) inserts again and fails on the primary key. Violates: "processed again with another amount — later, after a deploy restarted the worker —, the row must hold the **latest amount**, whether it is larger or smaller than the one before, or an amount the row held before (a correction undone)." Blind review.

This is the course notes' pattern copied from exercise 4's stub: correct for "same task id",
wrong for "same order, new amount".
"""
from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.record_payment", bind=True)
def record_payment(self, order_id: int, amount: str) -> None:
    connection = connect()
    with transaction(connection):
        if scalar(connection, "SELECT 1 FROM processed_events WHERE event_id = ?", (self.request.id,)):
            return
        execute(connection, "INSERT INTO invoices (order_id, amount, status) VALUES (?, ?, 'charged')",
                (order_id, amount))
        execute(connection, "INSERT INTO processed_events (event_id) VALUES (?)", (self.request.id,))
