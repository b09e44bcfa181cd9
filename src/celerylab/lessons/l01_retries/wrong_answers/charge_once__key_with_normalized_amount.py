"""Makes the amount part of the idempotency key, compared as a Decimal so that "99.9" equals "99.90": the reconciliation in the statement, with the same amount written another way, is skipped, but a reconciliation that re-sends the invoice with a corrected amount (a discount, a fee) charges the same invoice a second time: the key of "charge once per invoice" is the invoice, not its amount. Violates: "(c) ... a reconciliation sends the first invoice again as a **new task** ...: `SUCCESS`, and still **1** charge". Blind review."""
from decimal import Decimal

from celerylab.appdb import connect, execute, transaction
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    connection = connect()
    with transaction(connection):
        rows = execute(connection, "SELECT amount FROM invoice_charges WHERE order_id = ? AND invoice_no = ?",
                       (order_id, invoice_no)).fetchall()
        if any(Decimal(row[0]) == Decimal(amount) for row in rows):
            return "skipped"  # this exact charge is already there
        execute(connection, "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
                (order_id, invoice_no, amount))
    return "charged"
