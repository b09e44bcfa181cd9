"""Keeps the (order, invoice) keys in a SQLite file on the worker's own disk: a new machine has none and charges again. Violates: "a deploy has replaced the worker with a new one, on another machine (nothing the old one kept in memory or on its disk is there)". Blind review."""
import sqlite3

from celerylab.appdb import connect, execute, transaction
from celerylab.lessons.l01_retries.tasks import app

LEDGER = "/var/tmp/celerylab_charged_invoices.sqlite"


def _ledger():
    db = sqlite3.connect(LEDGER, timeout=10, isolation_level=None)
    db.execute("CREATE TABLE IF NOT EXISTS charged (order_id INTEGER, invoice_no TEXT, PRIMARY KEY (order_id, invoice_no))")
    return db


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    ledger = _ledger()
    if ledger.execute("SELECT 1 FROM charged WHERE order_id = ? AND invoice_no = ?", (order_id, invoice_no)).fetchone():
        return "skipped"
    connection = connect()
    with transaction(connection):
        execute(connection, "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
                (order_id, invoice_no, amount))
    ledger.execute("INSERT OR IGNORE INTO charged VALUES (?, ?)", (order_id, invoice_no))
    return "charged"
