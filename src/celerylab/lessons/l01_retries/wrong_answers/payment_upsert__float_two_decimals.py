"""Normalises the amount through float and two decimals before the upsert: fine for the usual "99.90"-style amounts (even compared as text), but it rounds a third decimal away ("10.005" → "10.01"/"10.00") and loses cents on large amounts ("12345678901234567.89" → "12345678901234568.00"), so the row no longer holds the amount that was sent. Violates: "the row must hold the **latest amount**". Blind review."""
from celerylab.appdb import connect, execute
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.record_payment")
def record_payment(order_id: int, amount: str) -> None:
    normalized = f"{float(amount):.2f}"  # "99.9" and "99.90" are the same payment
    execute(connect(), "INSERT INTO invoices (order_id, amount, status) VALUES (?, ?, 'charged') "
                       "ON CONFLICT (order_id) DO UPDATE SET amount = excluded.amount, status = 'charged'",
            (order_id, normalized))
