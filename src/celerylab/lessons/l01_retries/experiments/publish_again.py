"""The same message published 3 times with the same task id, to four writes: which ones absorb the re-run."""
import uuid
from dataclasses import dataclass

from celerylab import appdb
from celerylab.lessons.l01_retries import helpers
from celerylab.stack import Stack


@dataclass
class Rewrites:
    states: dict[str, list[str]]  # task -> the state of each of its 3 runs
    rows_blind: int               # invoices_blind rows for the order (a plain INSERT)
    rows_upsert: int              # invoices rows for the order (INSERT ... ON CONFLICT DO UPDATE)
    status_after_set: str         # orders.status after SET status = 'shipped'
    views_after_increment: int    # orders.views after SET views = views + 1


def publish_again(stack: Stack, order_id: int = 1, amount: str = "99.90", times: int = 3) -> Rewrites:
    connection = helpers.db(stack)
    appdb.execute(connection, "INSERT INTO orders (id, status, views) VALUES (?, 'paid', 0)", (order_id,))
    states: dict[str, list[str]] = {}
    for task, args in (("l01.record_payment_blind", (order_id, amount)), ("l01.record_payment_upsert", (order_id, amount)),
                       ("l01.mark_shipped", (order_id,)), ("l01.count_view", (order_id,))):
        task_id, states[task] = uuid.uuid4().hex, []
        for _ in range(times):  # not a broker redelivery: what any re-run of the message looks like to the task
            result = stack.app.send_task(task, args, task_id=task_id)
            states[task].append(helpers.finished(result))
            result.forget()
    one = (order_id,)
    record = Rewrites(states, appdb.scalar(connection, "SELECT COUNT(*) FROM invoices_blind WHERE order_id = ?", one),
                      appdb.scalar(connection, "SELECT COUNT(*) FROM invoices WHERE order_id = ?", one),
                      appdb.scalar(connection, "SELECT status FROM orders WHERE id = ?", one),
                      appdb.scalar(connection, "SELECT views FROM orders WHERE id = ?", one))
    connection.close()
    return record
