"""The notes' key, deleted by a cleanup: a replay is skipped, then a reconciliation months later charges again."""
import uuid
from dataclasses import dataclass

from celerylab import appdb
from celerylab.lessons.l01_retries import helpers, tasks_db
from celerylab.stack import Stack


@dataclass
class KeyTtl:
    first: str                         # what the task returned: "charged" or "skipped"
    replay: str                        # the same event sent again, while its key is kept
    charges_before_cleanup: int
    reconciliation: str                # the same event sent again, after the cleanup
    charges_after_reconciliation: int


def key_ttl(stack: Stack, order_id: int = 7) -> KeyTtl:
    connection = helpers.db(stack)
    event_id = f"payment-{uuid.uuid4().hex[:8]}"  # the key charge_once keeps in processed_events
    charges = "SELECT COUNT(*) FROM charges WHERE event_id = ?"
    first = tasks_db.charge_once.delay(order_id, event_id).get(timeout=10)
    replay = tasks_db.charge_once.delay(order_id, event_id).get(timeout=10)  # a retry, a redelivery: skipped
    before = appdb.scalar(connection, charges, (event_id,))
    # the cleanup that keeps the table small: every key "old enough" (here, all of them) goes
    appdb.execute(connection, "DELETE FROM processed_events WHERE created_at <= CURRENT_TIMESTAMP")
    reconciliation = tasks_db.charge_once.delay(order_id, event_id).get(timeout=10)  # weeks later, the same event
    after = appdb.scalar(connection, charges, (event_id,))
    connection.close()
    return KeyTtl(first, replay, before, reconciliation, after)
