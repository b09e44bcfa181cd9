"""Skips the write when this pool process last wrote the same amount for the order (a per-process dict): after another process, another worker or an operator changed the row, a message with the amount this process remembers is skipped and the row keeps the other value (amount A on child 1, correction B on child 2, correction undone A on child 1 → row stays B); one child restarted between the sendings, as in the check, never shows it. Violates: "the row must hold the **latest amount**, whether it is larger or smaller than the one before, or an amount the row held before (a correction undone)". Blind review."""
from celerylab.appdb import connect, execute
from celerylab.lessons.l01_retries.tasks import app

_last_written: dict[int, str] = {}  # order_id -> amount this process wrote last


@app.task(name="ex.record_payment")
def record_payment(order_id: int, amount: str) -> None:
    if _last_written.get(order_id) == amount:
        return  # the same message again: nothing to do
    execute(connect(), "INSERT INTO invoices (order_id, amount, status) VALUES (?, ?, 'charged') "
                       "ON CONFLICT (order_id) DO UPDATE SET amount = excluded.amount",
            (order_id, amount))
    _last_written[order_id] = amount
