"""Keys a charge by the order id and the invoice number written together with no separator: order 71's invoice 2 and order 7's invoice 12 share a key, so the second one is never charged. Violates: "(b) ... another order's invoice of the same number gets its own too, as does any other order's invoice (order 71's invoice `2` is not order 7's invoice `12`)" Blind review.
"""
from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    connection = connect()
    key = f"{order_id}{invoice_no}"
    with transaction(connection):
        if scalar(connection, "SELECT 1 FROM invoice_charges WHERE CAST(order_id AS TEXT) || invoice_no = ?", (key,)):
            return "skipped"
        execute(connection, "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
                (order_id, str(invoice_no), amount))
    return "charged"
