"""Keeps the key (order_id, invoice_no) in a table of its own with a 30-day expiry measured by the database's clock (expired keys are ignored and overwritten). Violates: "in months, every key set to expire within weeks has expired" (the reconciliation months later charges again). Blind review.
"""
from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    connection = connect()
    key = f"{order_id}:{invoice_no}"
    execute(connection, "CREATE TABLE IF NOT EXISTS charge_keys (key TEXT PRIMARY KEY, expires_at TIMESTAMP)")
    with transaction(connection):
        if scalar(connection, "SELECT 1 FROM charge_keys WHERE key = ? AND expires_at > now()", (key,)):
            return "skipped"
        execute(connection, "DELETE FROM charge_keys WHERE key = ?", (key,))
        execute(connection, "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
                (order_id, invoice_no, amount))
        execute(connection, "INSERT INTO charge_keys (key, expires_at) VALUES (?, now() + interval '30 days')", (key,))
    return "charged"
