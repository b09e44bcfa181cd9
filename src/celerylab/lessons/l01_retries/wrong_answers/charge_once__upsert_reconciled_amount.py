"""Unique (order_id, invoice_no), but ON CONFLICT DO UPDATE writes the reconciliation's amount over the charge already made. Violates: "(c) months later — a cleanup has emptied `processed_events` and a deploy has replaced the worker with a new one, on another machine (nothing the old one kept in memory or on its disk is there) —, a reconciliation sends the first invoice again as a **new task** (another id; the same order and invoice number, the amount written another way, `99.9` for `99.90`): `SUCCESS`, and still **1** charge, holding the amount first charged, as it was stored — the invoice is charged once, even when the reconciliation carries a corrected amount, and the charge made stays as charged." Blind review."""
from celerylab.appdb import connect, execute
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    connection = connect()
    execute(connection, "CREATE UNIQUE INDEX IF NOT EXISTS invoice_charges_once ON invoice_charges (order_id, invoice_no)")
    execute(connection, "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?) "
                        "ON CONFLICT (order_id, invoice_no) DO UPDATE SET amount = excluded.amount",
            (order_id, invoice_no, amount))
    return "charged"
