"""Dedupes on (order_id, invoice_no) in invoice_charges, but stores the amount normalised to two decimals (f"{Decimal(amount):.2f}"): "99.90" stays "99.90", while "12.5" becomes "12.50" and "10.125" becomes "10.12". Violates: "holding the amount first charged, as it was sent (the decimal string the first task carried, `99.90`: neither `99.9` nor cents)". Blind review.
"""
from decimal import Decimal

from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    connection = connect()
    with transaction(connection):
        if scalar(connection, "SELECT 1 FROM invoice_charges WHERE order_id = ? AND invoice_no = ?",
                  (order_id, invoice_no)):
            return "skipped"
        execute(connection, "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
                (order_id, invoice_no, f"{Decimal(amount):.2f}"))
    return "charged"
