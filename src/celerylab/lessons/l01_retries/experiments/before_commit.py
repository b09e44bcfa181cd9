"""A task sent inside the transaction that creates its row, and one sent after the COMMIT: what each reads."""
from dataclasses import dataclass

from celerylab import appdb
from celerylab.lessons.l01_retries import helpers
from celerylab.lessons.l01_retries import tasks_delivery as delivery
from celerylab.stack import Stack


@dataclass
class BeforeCommit:
    sent_before_commit: str | None  # the e-mail read_user found (None: no such row yet)
    sent_after_commit: str | None


def before_commit(stack: Stack, early_id: int = 7, late_id: int = 8) -> BeforeCommit:
    connection = helpers.db(stack)
    with appdb.transaction(connection):  # the request that creates the user
        appdb.execute(connection, "INSERT INTO users (id, email) VALUES (?, ?)", (early_id, f"user{early_id}@example.com"))
        seen_early = delivery.read_user.delay(early_id).get(timeout=10)  # the bug: sent before the COMMIT
    with appdb.transaction(connection):
        appdb.execute(connection, "INSERT INTO users (id, email) VALUES (?, ?)", (late_id, f"user{late_id}@example.com"))
    seen_late = delivery.read_user.delay(late_id).get(timeout=10)  # the fix: sent after the COMMIT
    connection.close()
    return BeforeCommit(seen_early, seen_late)
