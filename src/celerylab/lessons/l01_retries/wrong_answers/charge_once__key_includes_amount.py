"""Puts the amount in the key: the same invoice reconciled with the amount written differently ("10" vs "10.00") is charged twice. Violates: "a reconciliation sends the same invoice as a **new task** (another id): `SUCCESS`, and still **1** charge;" Blind review.
"""
from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    connection = connect()
    with transaction(connection):
        if scalar(connection, "SELECT 1 FROM invoice_charges WHERE order_id = ? AND invoice_no = ? AND amount = ?",
                  (order_id, invoice_no, amount)):
            return "skipped"
        execute(connection, "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
                (order_id, invoice_no, amount))
    return "charged"
