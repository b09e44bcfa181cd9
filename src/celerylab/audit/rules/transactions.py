"""Rule on sends inside a database transaction: the worker can run the task before the row is committed."""
from __future__ import annotations

from celerylab.audit.registry import rule
from celerylab.audit.usages import sends_in_transactions, usage_hits


@rule("CL307", "send-inside-transaction", "high", "defect")
def send_inside_transaction(view):
    yield from usage_hits(view, sends_in_transactions)
