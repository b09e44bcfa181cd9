"""Remembers the charged invoices in a set in the worker's memory: after a restart the set is empty and the invoice is charged again. Violates: "charge once per invoice, for months"."""
from celerylab.appdb import connect, execute
from celerylab.lessons.l01_retries.tasks import app

CHARGED: set[str] = set()


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    if invoice_no in CHARGED:
        return "skipped"
    execute(connect(), "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
            (order_id, invoice_no, amount))
    CHARGED.add(invoice_no)
    return "charged"
