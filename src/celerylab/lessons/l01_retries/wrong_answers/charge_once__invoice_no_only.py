"""Uses the invoice number alone as the key: invoice numbers restart per order, so another order's invoice "1" is never charged. Violates: "(b) ... as each order numbers its own invoices (order 7 and order 8 each have an invoice `1`), another order's invoice of the same number gets its own too;" Blind review.
"""
from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    connection = connect()
    with transaction(connection):
        if scalar(connection, "SELECT 1 FROM invoice_charges WHERE invoice_no = ?", (invoice_no,)):
            return "skipped"
        execute(connection, "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
                (order_id, invoice_no, amount))
    return "charged"
