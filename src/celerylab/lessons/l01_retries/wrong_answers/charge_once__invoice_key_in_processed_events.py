"""Uses the invoice number as the key but keeps it in processed_events: once the cleanup empties that table, the reconciliation charges again. Violates: "(c) months later — a cleanup has emptied processed_events ... still 1 charge"."""
from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    connection = connect()
    key = invoice_no
    with transaction(connection):
        if scalar(connection, "SELECT 1 FROM processed_events WHERE event_id = ?", (key,)):
            return "skipped"
        execute(connection, "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
                (order_id, invoice_no, amount))
        execute(connection, "INSERT INTO processed_events (event_id) VALUES (?)", (key,))
    return "charged"
