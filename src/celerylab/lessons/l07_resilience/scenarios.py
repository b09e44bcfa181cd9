"""Lesson 07's reproductions: the broker restarted under a busy worker, a worker fed a leaking task."""
from __future__ import annotations

import time

from celerylab.lessons.l07_resilience import helpers
from celerylab.stack import Stack


def outage(stack: Stack, keep_data: bool, orders: int = 16, seconds: float = 0.3, downtime: float = 2.0) -> dict:
    """Fill the queue, restart the broker under the busy worker, then see what became of every order."""
    worker = stack.workers[0]
    sent = [stack.app.send_task("l07.work", (seconds,)) for _ in range(orders)]
    worker.wait_for_log(r"l07\.work\[.*\] succeeded", timeout=15)  # busy: running, prefetched and queued orders
    since = worker.log_offset()
    before = helpers.queue_lengths(stack)                          # the worker's state when the broker goes
    stack.broker.restart(downtime=downtime, keep_data=keep_data)  # the fault: stop, `downtime` s, start, same port
    back, back_at = time.monotonic(), time.time()
    canary = stack.app.send_task("l07.echo", ("canary",))          # the first new task after the broker is back
    answered = helpers.until(lambda: canary.ready() or not worker.alive, timeout=30)  # polls the result key
    first_task = time.monotonic() - back if answered and canary.ready() else None
    helpers.settle(sent, quiet=1.0 if worker.alive else 0.2)
    runs = helpers.runs(stack)                                     # one row per run: a task run twice counts twice
    ran = set(runs)
    states = [result.state for result in sent if result.id in ran]
    parked = helpers.unacked_ids(stack)
    logs = "\n".join(worker.logs.splitlines()[since:])  # log_offset() counts lines
    connected = [helpers.log_time(line) for line in logs.splitlines() if "Connected to" in line]
    failure = next((result.result for result in sent if result.state == "FAILURE"), None)
    return {"sent": orders, "ids": [result.id for result in sent], "queued_before": before["queued"], "reserved_before": before["unacked"],
            "ran": len(states), "runs": len(runs), "never_ran": orders - len(states),
            "ran_failure": states.count("FAILURE"), "ran_pending": states.count("PENDING"),
            **helpers.queue_lengths(stack), "ran_and_unacked": len(ran & parked),
            "reconnected": round(connected[0] - back_at, 1) if connected and connected[0] else None,
            "canary": round(first_task, 1) if first_task is not None else None, "failure": failure,
            "alive": worker.alive, "exit_code": worker.returncode,
            "attempts": sum(1 for line in logs.splitlines() if "Cannot connect" in line),
            "log": helpers.log_lines(logs, "lost", "Restoring", "Cannot connect", "Trying again", "Connected to",
                                     "Unrecoverable")}


def reconnect(stack: Stack, results: bool, downtime: float = 8.0, orders: int = 24, seconds: float = 0.3) -> dict:
    """A busy worker whose tasks store `results` in the Redis backend (or none), the broker down `downtime` s: its
    failed attempts, and when it connected and ran a task again (read from its log)."""
    worker = stack.workers[0]
    for _ in range(orders):
        stack.app.send_task("l07.work", (seconds,), ignore_result=not results)
    worker.wait_for_log(r"l07\.work\[.*\] succeeded", timeout=15)
    since = worker.log_offset()
    stack.broker.restart(downtime=downtime, keep_data=True)
    back_at = time.time()

    def after(needle: str) -> list[float]:
        times = [helpers.log_time(line) for line in worker.logs.splitlines()[since:] if needle in line]
        return [moment - back_at for moment in times if moment and moment > back_at]

    helpers.until(lambda: after("succeeded") or not worker.alive, timeout=40)
    logs = worker.logs.splitlines()[since:]
    attempts = sum(1 for line in logs if "Cannot connect" in line)
    ran = after("succeeded")
    return {"alive": worker.alive, "attempts": attempts, "silent": attempts == 0,
            "reconnected": round(after("Connected to")[0], 1) if after("Connected to") else None,
            "first_task": round(ran[0], 1) if ran else None}


def grow(stack: Stack, tasks: int = 9, megabytes: int = 10) -> dict:
    """Send the leaking task `tasks` times, one after the other; the worker's resident memory after each."""
    worker = stack.workers[0]
    worker.wait_pool_ready()
    base, started = worker.rss_total(), time.monotonic()
    growth, pids = [], []
    for _ in range(tasks):
        pids.append(stack.app.send_task("l07.leaky_report", (megabytes,)).get(timeout=30))
        growth.append((worker.rss_total() - base) / helpers.MB)
    seconds = time.monotonic() - started
    worker.wait_pool_ready(timeout=15)
    return {"growth": growth, "children": len(set(pids)), "peak": max(growth),
            "after": (worker.rss_total() - base) / helpers.MB, "seconds": seconds}


def recover(stack: Stack, orders: int = 5, seconds: float = 1.0, downtime: float = 2.0, timeout: float = 60.0) -> dict:
    """The drained worker's outage, then what a process manager does (start it again) until every order has run."""
    run = outage(stack, keep_data=True, orders=orders, seconds=seconds, downtime=downtime)
    worker, started = stack.workers[0], time.monotonic()
    died = not worker.alive
    helpers.revive(stack)                                          # systemd's Restart=always, Kubernetes' restartPolicy
    sent = set(run.pop("ids"))
    everything = helpers.until(lambda: sent <= set(helpers.runs(stack)), timeout=timeout, step=0.25)
    runs = helpers.runs(stack)
    return {"died": died, "all_ran": bool(everything), "orders": orders, "runs": len([r for r in runs if r in sent]),
            "ran_twice": sum(1 for task_id in sent if runs.count(task_id) > 1),
            "all_ran_after": round(time.monotonic() - started, 1) if everything else None}
