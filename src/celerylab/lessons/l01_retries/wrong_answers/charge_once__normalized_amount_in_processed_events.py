"""Builds the key from order, invoice and the amount normalised as Decimal, which handles "99.9" vs "99.90", but keeps it in processed_events, which the cleanup empties. Violates: "(c) months later — a cleanup has emptied `processed_events` and the worker has restarted (a deploy) —, a reconciliation sends the first invoice again as a **new task** (another id; the same order and invoice number, the amount written another way, `99.9` for `99.90`): `SUCCESS`, and still **1** charge." Blind review.

Looks like it addressed the exact trap the statement names (the amount's spelling); the
reconciliation after the cleanup finds no key and charges a second time.
"""
from decimal import Decimal

from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    connection = connect()
    key = f"{order_id}:{invoice_no}:{Decimal(str(amount)).normalize()}"
    with transaction(connection):
        if scalar(connection, "SELECT 1 FROM processed_events WHERE event_id = ?", (key,)):
            return "skipped"
        execute(connection, "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
                (order_id, invoice_no, amount))
        execute(connection, "INSERT INTO processed_events (event_id) VALUES (?)", (key,))
    return "charged"
