"""Dedupes on (order_id, the invoice number's digits), "so INV-12, inv 12 and 12 are one invoice": two different invoices of one order whose numbers share their digits (A-1 and B-1, INV-7 and CN-7) get one charge. Violates: "(b) a second invoice of the same order gets **its own** charge (1 row)". Blind review.
"""
import re

from celerylab.appdb import connect, execute, transaction
from celerylab.lessons.l01_retries.tasks import app


def digits(invoice_no: str) -> str:
    return re.sub(r"\D", "", invoice_no).lstrip("0") or "0"


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    connection = connect()
    with transaction(connection):
        charged = execute(connection, "SELECT invoice_no FROM invoice_charges WHERE order_id = ?", (order_id,)).fetchall()
        if any(digits(row[0]) == digits(invoice_no) for row in charged):
            return "skipped"
        execute(connection, "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
                (order_id, invoice_no, amount))
    return "charged"
