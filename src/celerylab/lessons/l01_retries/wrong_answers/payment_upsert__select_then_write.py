"""Check-then-act: SELECT the row, then UPDATE or INSERT; two workers processing a new payment at once both INSERT and one fails with a duplicate key. Violates: "Two copies of a new order's first payment may also arrive at the same time, in two worker processes: both end in `SUCCESS` and leave **one** row, with the amount sent." Blind review."""
from celerylab.appdb import connect, execute, scalar
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.record_payment")
def record_payment(order_id: int, amount: str) -> None:
    connection = connect()
    if scalar(connection, "SELECT 1 FROM invoices WHERE order_id = ?", (order_id,)):
        execute(connection, "UPDATE invoices SET amount = ? WHERE order_id = ?", (amount, order_id))
    else:
        execute(connection, "INSERT INTO invoices (order_id, amount, status) VALUES (?, ?, 'charged')", (order_id, amount))
