"""Lesson 01's database tasks: blind insert, upsert, set, increment, a charge keyed by event."""
from __future__ import annotations

from celerylab.appdb import connect, execute, transaction
from celerylab.lessons.l01_retries.tasks import already_processed, app, remember


@app.task(name="l01.record_payment_blind")
def record_payment_blind(order_id: int, amount: str) -> None:
    execute(connect(), "INSERT INTO invoices_blind (order_id, amount, status) VALUES (?, ?, 'charged')",
            (order_id, amount))


@app.task(name="l01.record_payment_upsert")
def record_payment_upsert(order_id: int, amount: str) -> None:
    """An upsert on the order: a re-run finds the row and sets its status again."""
    execute(connect(), "INSERT INTO invoices (order_id, amount, status) VALUES (?, ?, 'charged') "
            "ON CONFLICT (order_id) DO UPDATE SET status = excluded.status", (order_id, amount))


@app.task(name="l01.mark_shipped")
def mark_shipped(order_id: int) -> None:
    execute(connect(), "UPDATE orders SET status = 'shipped' WHERE id = ?", (order_id,))


@app.task(name="l01.count_view")
def count_view(order_id: int) -> None:
    execute(connect(), "UPDATE orders SET views = views + 1 WHERE id = ?", (order_id,))


@app.task(name="l01.charge_once")
def charge_once(order_id: int, event_id: str) -> str:
    """A database effect and its key in one transaction: here the notes' pattern does hold."""
    connection = connect()
    with transaction(connection):
        if already_processed(connection, event_id):
            return "skipped"
        execute(connection, "INSERT INTO charges (order_id, event_id) VALUES (?, ?)", (order_id, event_id))
        remember(connection, event_id)
    return "charged"
