"""A unique index on the order: the second invoice of the same order is skipped. Violates: "(b) a second invoice of the same order gets its own charge"."""
from celerylab.appdb import connect, execute, scalar, transaction
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.charge", bind=True)
def charge(self, order_id: int, invoice_no: str, amount: str) -> str:
    connection = connect()
    # The invoice is the business event: its number is the key, kept by the charge itself.
    execute(connection, "CREATE UNIQUE INDEX IF NOT EXISTS invoice_charges_once ON invoice_charges (order_id)")
    inserted = execute(connection, "INSERT INTO invoice_charges (order_id, invoice_no, amount) VALUES (?, ?, ?) "
                       "ON CONFLICT (order_id) DO NOTHING", (order_id, invoice_no, amount)).rowcount
    return "charged" if inserted else "skipped"
