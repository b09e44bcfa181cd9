"""Only updates: there is no row to update the first time, so nothing is ever written. Violates: "leave one row"."""
from celerylab.appdb import connect, execute
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.record_payment")
def record_payment(order_id: int, amount: str) -> None:
    execute(connect(), "UPDATE invoices SET amount = ?, status = 'charged' WHERE order_id = ?", (amount, order_id))
