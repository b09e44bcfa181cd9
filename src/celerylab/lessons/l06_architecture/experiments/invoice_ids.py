"""Two invoices sent with a 1 s countdown, one given the whole user and one its id; the plan changes before they run."""
from dataclasses import dataclass

from celerylab.appdb import execute
from celerylab.lessons.l06_architecture import tasks
from celerylab.stack import Stack


@dataclass
class InvoiceIds:
    snapshot: str  # what the invoice given the whole user says
    by_id: str     # what the invoice given the id says


def invoice_ids(stack: Stack, user_id: int = 1) -> InvoiceIds:
    db = stack.db()
    execute(db, "INSERT INTO users (id, name, plan) VALUES (?, 'Ana', 'free')", (user_id,))
    user = dict(zip(("id", "name", "plan"), execute(db, "SELECT id, name, plan FROM users WHERE id = ?",
                                                    (user_id,)).fetchone()))
    snapshot = tasks.invoice_snapshot.apply_async((user,), countdown=1)  # the whole object
    by_id = tasks.invoice.apply_async((user["id"],), countdown=1)        # only the id
    execute(db, "UPDATE users SET plan = 'pro' WHERE id = ?", (user_id,))  # changes before the tasks run
    return InvoiceIds(snapshot.get(timeout=10), by_id.get(timeout=10))
