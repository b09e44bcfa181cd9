"""Deduplicates on (order_id, amount) in processed_events before upserting, so going back to an amount the order already had (a correction undone) is skipped and the row keeps the newer one. Violates: "processed again with another amount — later, after a deploy restarted the worker —, the row must hold the **latest amount**, whether it is larger or smaller than the one before, or an amount the row held before (a correction undone)." Blind review.

A -> A -> A writes once; A -> B writes B; A -> B -> A leaves B. The key table also grows forever.
"""
from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.record_payment")
def record_payment(order_id: int, amount: str) -> None:
    connection = connect()
    key = f"payment:{order_id}:{amount}"
    with transaction(connection):
        if scalar(connection, "SELECT 1 FROM processed_events WHERE event_id = ?", (key,)):
            return
        execute(connection,
                "INSERT INTO invoices (order_id, amount, status) VALUES (?, ?, 'charged') "
                "ON CONFLICT (order_id) DO UPDATE SET amount = excluded.amount",
                (order_id, amount))
        execute(connection, "INSERT INTO processed_events (event_id) VALUES (?)", (key,))
