"""Memoises the write with functools.lru_cache on (order_id, amount), so within one worker process a return to an earlier amount is served from the cache and never written. Violates: "processed again with another amount — later, after a deploy restarted the worker —, the row must hold the **latest amount**, whether it is larger or smaller than the one before, or an amount the row held before (a correction undone)." Blind review.

The cache makes the three identical deliveries one write; after a restart the cache is empty,
so the check's "new amount after a deploy" passes, but A -> B -> A in one process leaves B.
"""
from functools import lru_cache

from celerylab.appdb import connect, execute
from celerylab.lessons.l01_retries.tasks import app


@lru_cache(maxsize=4096)
def _write(order_id: int, amount: str) -> None:
    execute(connect(),
            "INSERT INTO invoices (order_id, amount, status) VALUES (?, ?, 'charged') "
            "ON CONFLICT (order_id) DO UPDATE SET amount = excluded.amount",
            (order_id, amount))


@app.task(name="ex.record_payment")
def record_payment(order_id: int, amount: str) -> None:
    _write(order_id, amount)
