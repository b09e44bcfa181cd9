"""Keeps the larger amount (MAX on a TEXT column) instead of the latest: correct only when the new amount sorts higher. Violates: "processed again with another amount, the row must hold the **latest amount**." Blind review.
"""
from celerylab.appdb import connect, execute
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.record_payment")
def record_payment(order_id: int, amount: str) -> None:
    execute(connect(), "INSERT INTO invoices (order_id, amount, status) VALUES (?, ?, 'charged') "
            "ON CONFLICT (order_id) DO UPDATE SET amount = MAX(invoices.amount, excluded.amount)",
            (order_id, amount))
