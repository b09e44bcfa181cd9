"""The broker restarted under a busy worker: what became of every order, and how the worker came back (or died)."""
import time
from dataclasses import dataclass

from celerylab.lessons.l07_resilience import helpers
from celerylab.stack import Stack


@dataclass
class Outage:
    sent: int
    ids: list[str]
    queued_before: int    # in the Redis list when the broker went
    reserved_before: int  # delivered to the worker and not acknowledged (the `unacked` hash) when the broker went
    ran: int              # orders that ran to the end (a row in the database's `runs`)
    runs: int             # rows in `runs`: a task run twice counts twice
    never_ran: int
    ran_failure: int      # orders that ran, yet read FAILURE
    ran_pending: int
    queued: int           # in the list once the worker is back
    unacked: int          # in the `unacked` hash once the worker is back
    ran_and_unacked: int  # orders that ran whose message is still in `unacked`: they will run again
    reconnected: float | None  # seconds from the broker's return to the worker's "Connected to"
    canary: float | None       # seconds from the broker's return to a new task's answer
    failure: object            # what a FAILURE order stored
    alive: bool
    exit_code: int | None
    attempts: int              # "Cannot connect" lines
    log: list[str]             # the worker's lines, from the loss to the return (or to its death)


def outage(stack: Stack, keep_data: bool, orders: int = 16, seconds: float = 0.3, downtime: float = 2.0) -> Outage:
    worker = stack.workers[0]
    sent = [stack.app.send_task("l07.work", (seconds,)) for _ in range(orders)]
    worker.wait_for_log(r"l07\.work\[.*\] succeeded", timeout=15)  # busy: running, prefetched and queued orders
    since, before = worker.log_offset(), helpers.queue_lengths(stack)  # the worker's state when the broker goes
    stack.broker.restart(downtime=downtime, keep_data=keep_data)  # the fault: stop, `downtime` s, start, same port
    back, back_at = time.monotonic(), time.time()
    canary = stack.app.send_task("l07.echo", ("canary",))          # the first new task after the broker is back
    answered = helpers.until(lambda: canary.ready() or not worker.alive, timeout=30)  # polls the result key
    first_task = round(time.monotonic() - back, 1) if answered and canary.ready() else None
    helpers.settle(sent, quiet=1.0 if worker.alive else 0.2)
    failure = next((result.result for result in sent if result.state == "FAILURE"), None)
    return Outage(orders, [result.id for result in sent], before["queued"], before["unacked"],
                  **helpers.fate(stack, sent), canary=first_task, failure=failure, alive=worker.alive,
                  exit_code=worker.returncode, **helpers.outage_log(worker, since, back_at))
