"""Catches the duplicate-key error and returns: three deliveries succeed with one row, but a later amount is never written. Violates: "processed again with another amount, the row must hold the **latest amount**." Blind review.
"""
import sqlite3

from celerylab.appdb import connect, execute
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.record_payment")
def record_payment(order_id: int, amount: str) -> None:
    try:
        execute(connect(), "INSERT INTO invoices (order_id, amount, status) VALUES (?, ?, 'charged')",
                (order_id, amount))
    except (sqlite3.IntegrityError, Exception) as error:  # psycopg's UniqueViolation too
        if "UNIQUE" not in str(error).upper():
            raise
