"""Upserts with DO NOTHING: reprocessing succeeds with one row, but a new amount is ignored and the first amount stays. Violates: "processed again with another amount, the row must hold the **latest amount**." Blind review.
"""
from celerylab.appdb import connect, execute
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.record_payment")
def record_payment(order_id: int, amount: str) -> None:
    execute(connect(), "INSERT INTO invoices (order_id, amount, status) VALUES (?, ?, 'charged') "
            "ON CONFLICT (order_id) DO NOTHING", (order_id, amount))
