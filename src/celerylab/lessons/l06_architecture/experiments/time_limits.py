"""A hung task under soft_time_limit=1 and time_limit=2: its handler gives up, or ignores the interruption."""
import time
from dataclasses import dataclass

from celerylab.lessons.l06_architecture import helpers, tasks
from celerylab.stack import Stack


@dataclass
class Limited:
    stubborn: bool         # whether its handler ignores SoftTimeLimitExceeded
    state: str
    error: str
    seconds: float         # from the send to the failure
    failed_events: int     # task-failed events Flower counted for it


def time_limits(stack: Stack) -> list[Limited]:
    flower = helpers.flower(stack)
    rows = []
    for stubborn in (False, True):
        before = helpers.settled(lambda: helpers.failed_events(flower, "data.sync_erp"))
        sent = time.time()
        hung = tasks.sync_erp.delay(30, stubborn)  # the ERP "hangs" for 30 s
        hung.get(timeout=15, propagate=False)
        took = time.time() - sent
        helpers.until(lambda: helpers.failed_events(flower, "data.sync_erp") > before, timeout=5)
        counted = helpers.settled(lambda: helpers.failed_events(flower, "data.sync_erp")) - before
        rows.append(Limited(stubborn, hung.state, type(hung.result).__name__, took, int(counted)))
    return rows
