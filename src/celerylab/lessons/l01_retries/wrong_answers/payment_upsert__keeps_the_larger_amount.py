"""An upsert that only replaces the amount when the new one is larger: a later, smaller amount is lost. Violates: "the row must hold the latest amount"."""
from celerylab.appdb import connect, execute
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.record_payment")
def record_payment(order_id: int, amount: str) -> None:
    execute(connect(), "INSERT INTO invoices (order_id, amount, status) VALUES (?, ?, 'charged') "
            "ON CONFLICT (order_id) DO UPDATE SET amount = excluded.amount, status = excluded.status "
            "WHERE CAST(excluded.amount AS NUMERIC) > CAST(invoices.amount AS NUMERIC)",
            (order_id, amount))
