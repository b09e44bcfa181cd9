"""A send held for its countdown, revoked, then the worker restarted: does it remember the id, does the send run?"""
from dataclasses import dataclass

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack


@dataclass
class HeldSendRestart:
    revoked_after_restart: bool  # the id is in the restarted worker's revoked list
    held_send: str               # "discarded" or "ran", once its countdown came due


def held_send_restart(stack: Stack, worker, countdown: float = 6) -> HeldSendRestart:
    since = worker.log_offset()
    held = stack.app.send_task("l04.bulk", (["f@example.com"], "hi"), countdown=countdown)
    worker.wait_for_log(rf"l04.bulk\[{held.id}\] received", timeout=5, since=since)
    stack.app.control.revoke(held.id)
    helpers.until(lambda: held.id in helpers.revoked_ids(stack, worker), timeout=5)
    worker.restart()  # warm shutdown; with mingle on, it asks its live peers for their revoked ids at start-up
    return HeldSendRestart(held.id in helpers.revoked_ids(stack, worker),
                           helpers.held_send_fate(worker, held.id, timeout=countdown + 24))
