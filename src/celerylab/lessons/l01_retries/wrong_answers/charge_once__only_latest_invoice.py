"""Compares only with the order's most recent charge: reconciling an older invoice after a newer one charges it again. Violates: "a reconciliation sends the same invoice as a **new task** (another id): `SUCCESS`, and still **1** charge;" Blind review.
"""
from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    connection = connect()
    with transaction(connection):
        last = scalar(connection, "SELECT invoice_no FROM invoice_charges WHERE order_id = ? "
                      "ORDER BY rowid DESC LIMIT 1", (order_id,))
        if last == invoice_no:
            return "skipped"
        execute(connection, "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
                (order_id, invoice_no, amount))
    return "charged"
