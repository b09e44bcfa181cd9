"""A busy worker whose tasks store their results in the Redis backend (or none), the broker down `downtime` s: its
failed attempts, and when it connected and ran a task again (read from its log)."""
from dataclasses import dataclass

from celerylab.lessons.l07_resilience import helpers
from celerylab.stack import Stack


@dataclass
class Reconnect:
    alive: bool
    attempts: int               # "Cannot connect" lines: kombu's schedule, at 2, 6, 12 ... s after the loss
    silent: bool                # no attempt logged: the heartbeat's publish retry caught the outage first
    reconnected: float | None   # seconds from the broker's return to "Connected to"
    first_task: float | None    # seconds from the broker's return to the first task that succeeded


def reconnect(stack: Stack, results: bool, downtime: float = 8.0, orders: int = 24, seconds: float = 0.3) -> Reconnect:
    worker = stack.workers[0]
    for _ in range(orders):
        stack.app.send_task("l07.work", (seconds,), ignore_result=not results)
    worker.wait_for_log(r"l07\.work\[.*\] succeeded", timeout=15)
    since = worker.log_offset()
    stack.broker.restart(downtime=downtime, keep_data=True)
    log = helpers.WorkerLog(worker, since)  # the worker's lines from here on, timed from the broker's return
    helpers.until(lambda: log.after("succeeded") or not worker.alive, timeout=40)
    attempts, connected, ran = log.count("Cannot connect"), log.after("Connected to"), log.after("succeeded")
    return Reconnect(worker.alive, attempts, attempts == 0, round(connected[0], 1) if connected else None,
                     round(ran[0], 1) if ran else None)
