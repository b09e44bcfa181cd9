"""Business key kept in processed_events plus a worker-memory set: survives the cleanup only while the same worker process lives. Violates: "(b) after a cleanup empties `processed_events`, a reconciliation sends the same invoice as a **new task** (another id): `SUCCESS`, and still **1** charge;" Blind review.
"""
from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l01_retries.tasks import app

CHARGED: set = set()


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    key = f"charge:{order_id}:{invoice_no}"
    if key in CHARGED:
        return "skipped"
    connection = connect()
    with transaction(connection):
        if scalar(connection, "SELECT 1 FROM processed_events WHERE event_id = ?", (key,)):
            CHARGED.add(key)
            return "skipped"
        execute(connection, "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?)",
                (order_id, invoice_no, amount))
        execute(connection, "INSERT INTO processed_events (event_id) VALUES (?)", (key,))
    CHARGED.add(key)
    return "charged"
