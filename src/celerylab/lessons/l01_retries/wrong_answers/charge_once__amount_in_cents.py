"""Stores the amount converted to integer cents (9990 for "99.90"): the charge no longer holds the amount as it was sent. Violates: "still **1** charge, holding the amount first charged, as it was sent (the decimal string the first task carried, `99.90`: neither `99.9` nor cents)." Blind review."""
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
                (order_id, invoice_no, str(int(Decimal(amount) * 100))))
    return "charged"
