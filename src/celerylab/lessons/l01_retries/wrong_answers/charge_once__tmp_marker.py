"""Keeps the (order, invoice) key as a marker file on the worker machine's disk: a deploy onto a new machine/container (or another worker host) charges again. Violates: "(c) months later — a cleanup has emptied `processed_events` and a deploy has replaced the worker with a new one, on another machine (nothing the old one kept in memory or on its disk is there) —, a reconciliation sends the first invoice again as a **new task** ...: `SUCCESS`, and still **1** charge" Blind review.
"""
import os

from celerylab.appdb import connect, execute
from celerylab.lessons.l01_retries.tasks import app

CHARGED_DIR = "/tmp/celerylab-charged"


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    os.makedirs(CHARGED_DIR, exist_ok=True)
    marker = os.path.join(CHARGED_DIR, f"{order_id}-{invoice_no}".replace("/", "_"))
    if os.path.exists(marker):
        return "skipped"
    execute(connect(), "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
            (order_id, invoice_no, amount))
    with open(marker, "w") as file:
        file.write(self.request.id)
    return "charged"
