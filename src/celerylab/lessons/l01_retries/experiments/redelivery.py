"""A real broker redelivery: acks_late and reject_on_worker_lost, the pool child killed after the COMMIT."""
from dataclasses import dataclass

from celerylab import appdb
from celerylab.lessons.l01_retries import helpers
from celerylab.lessons.l01_retries import tasks_delivery as delivery
from celerylab.stack import Stack


@dataclass
class Redelivery:
    broker_unacked: int        # the task's messages Redis held unacknowledged while it ran
    result: str
    state: str
    runs: int
    redelivered: list[bool]    # delivery_info["redelivered"] of each run
    views_after_increment: int
    rows_upsert: int


def redelivery(stack: Stack, order_id: int = 2) -> Redelivery:
    connection = helpers.db(stack)
    appdb.execute(connection, "INSERT INTO orders (id, status, views) VALUES (?, 'paid', 0)", (order_id,))
    paid = delivery.pay_and_count.delay(order_id, "99.90", 1)  # acks_late=True, reject_on_worker_lost=True
    helpers.wait_value(stack, "SELECT views FROM orders WHERE id = ?", (order_id,), wanted=1)  # the COMMIT happened
    held = helpers.broker_messages(stack, paid.id)  # acks_late: the message stays in Redis, unacknowledged
    stack.workers[0].kill_child()                   # SIGKILL the pool child process, after the COMMIT
    value = paid.get(timeout=30, propagate=False)
    counted = appdb.scalar(connection, "SELECT views FROM orders WHERE id = ?", (order_id,))
    rows = appdb.scalar(connection, "SELECT COUNT(*) FROM invoices WHERE order_id = ?", (order_id,))
    connection.close()
    return Redelivery(held["unacked"], value, paid.state, helpers.runs(stack, paid.id),
                      helpers.redelivered_flags(stack, paid.id), counted, rows)
