"""Prefetch settings when no process is free: one `-c 2` worker, four long tasks then four short ones, per case."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

from celerylab.lessons.l06_architecture import helpers, scenarios, tasks
from celerylab.stack import Stack, WorkerSpec

LONG = 3.0  # seconds: each long task
LONGS = 4  # long tasks, sent first: two run, two wait for a free process
SHORTS = 4  # short tasks, sent right after them
FIX = {"worker_prefetch_multiplier": 1, "task_acks_late": True}

#: case -> the workers it adds, as (queues, settings, extra args); the long tasks go to 'lw-<case>', the short
#: ones too, except on 'routed', whose short ones have a queue (and a -c 1 worker) of their own.
CASES = {
    "default": [("long", {}, ())],
    "multiplier_1_acks_late": [("long", FIX, ())],
    "fair": [("long", {}, ("-O", "fair"))],
    "disable_prefetch": [("long", {"worker_disable_prefetch": True}, ())],
    "routed": [("long", {}, ()), ("short", {}, ())],
    "two_workers": [("long", FIX, ()), ("long", FIX, ())],
}


def queue(case: str, kind: str) -> str:
    return f"lw-{case}" if kind == "long" else f"lw-{case}-short"


def add_workers(stack: Stack, cases: dict = CASES) -> dict[str, dict[str, str]]:
    """Start every case's workers at once: {case: {"long": queue, "short": queue}}."""
    specs = [WorkerSpec(pool="prefork", concurrency=2 if kind == "long" else 1, queues=(queue(case, kind),),
                        name=f"lw-{case}-{i}", settings=settings, extra_args=args)
             for case, workers in cases.items() for i, (kind, settings, args) in enumerate(workers, 1)]
    with ThreadPoolExecutor(max_workers=len(specs)) as pool:
        list(pool.map(stack.add_worker, specs))
    return {case: {"long": queue(case, "long"),
                   "short": queue(case, "short" if any(kind == "short" for kind, _, _ in workers) else "long")}
            for case, workers in cases.items()}


def peak(stack: Stack, routes: dict[str, str], app=None) -> dict:
    """LONGS long tasks, then (once the first two run) SHORTS short ones: each short one's wait, in seconds."""
    app = app or tasks.app
    longs = [app.send_task("l06.long", (LONG,), queue=routes["long"]) for _ in range(LONGS)]
    for result in longs[:2]:
        scenarios.received_by(stack, result)
    sent, results = {}, {}
    for i in range(SHORTS):
        sent[i] = time.time()
        results[i] = app.send_task("l06.short", (i,), queue=routes["short"])
    waits = helpers.waits(sent, results, timeout=30 + LONG * LONGS)
    for result in longs:
        result.get(timeout=30)
    return {"waits": waits, "workers": len({result._get_task_meta().get("worker") for result in longs})}


def peaks(stack: Stack, routes: dict[str, dict[str, str]]) -> dict[str, dict]:
    """A peak on every case at the same time (the tasks sleep: the cases barely compete for CPU)."""
    with ThreadPoolExecutor(max_workers=len(routes)) as pool:
        return dict(zip(routes, pool.map(lambda r: peak(stack, r), routes.values())))


def stop_workers(stack: Stack) -> None:
    """Stop (SIGTERM, all at once) the workers add_workers started."""
    added = [w for w in stack.workers if w.spec.queues and w.spec.queues[0].startswith("lw-")]
    with ThreadPoolExecutor(max_workers=max(1, len(added))) as pool:
        list(pool.map(lambda worker: worker.terminate(), added))
