"""Guards the charge with a functools.lru_cache keyed on (order_id, invoice_no), so the guard lives in one process's memory and a reconciliation after the worker restarts charges again. Violates: "(c) months later — a cleanup has emptied `processed_events` and the worker has restarted (a deploy) —, a reconciliation sends the first invoice again as a **new task** (another id; the same order and invoice number, the amount written another way, `99.9` for `99.90`): `SUCCESS`, and still **1** charge." Blind review.

The three deliveries of (a) find the cached token (one child process in the check), (b) has its
own key; the amount is left out of the key on purpose, so "99.9" vs "99.90" would not matter.
"""
from functools import lru_cache

from celerylab.appdb import connect, execute, transaction
from celerylab.lessons.l01_retries.tasks import app


@lru_cache(maxsize=None)
def _invoice_token(order_id: int, invoice_no: str) -> list:
    return []  # one token per invoice, kept for the life of the process


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    token = _invoice_token(order_id, str(invoice_no))
    if token:
        return "skipped"
    connection = connect()
    with transaction(connection):
        execute(connection, "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
                (order_id, invoice_no, amount))
    token.append(self.request.id)
    return "charged"
