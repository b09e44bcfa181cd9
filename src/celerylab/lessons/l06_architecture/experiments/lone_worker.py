"""Prefetch settings when no process is free: one `-c 2` worker, four long tasks then four short ones, per case."""
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from celerylab.lessons.l06_architecture import helpers, tasks
from celerylab.stack import Stack, WorkerSpec

LONG = 3.0  # seconds: each long task
LONGS = 4  # long tasks, sent first: two run, two wait for a free process
SHORTS = 4  # short tasks, sent right after them
FIX = {"worker_prefetch_multiplier": 1, "task_acks_late": True}
#: case -> its workers as (kind, settings, extra args): long tasks go to 'lw-<case>', the short ones too, except on
#: 'routed', whose short ones have a queue (and a -c 1 worker) of their own
CASES: dict[str, list[tuple[str, dict, tuple]]] = {
    "default": [("long", {}, ())], "multiplier_1_acks_late": [("long", FIX, ())],
    "fair": [("long", {}, ("-O", "fair"))], "disable_prefetch": [("long", {"worker_disable_prefetch": True}, ())],
    "routed": [("long", {}, ()), ("short", {}, ())], "two_workers": [("long", FIX, ()), ("long", FIX, ())]}


@dataclass
class Peak:
    waits: dict[int, float]  # short task -> seconds from its send to its start
    workers: int             # how many workers ran the long tasks


@dataclass
class LoneWorker:
    fair_command: str        # the command line of the -O fair case's worker
    peaks: dict[str, Peak]   # case -> its peak


def queue(case: str, kind: str) -> str:
    return f"lw-{case}" if kind == "long" or all(k == "long" for k, _, _ in CASES[case]) else f"lw-{case}-short"


def peak(stack: Stack, case: str) -> Peak:
    longs = [tasks.app.send_task("l06.long", (LONG,), queue=queue(case, "long")) for _ in range(LONGS)]
    for result in longs[:2]:
        helpers.received_by(stack, result)  # the first two run: every process is busy
    sent, results = {}, {}
    for i in range(SHORTS):
        sent[i] = time.time()
        results[i] = tasks.app.send_task("l06.short", (i,), queue=queue(case, "short"))
    waits = helpers.waits(sent, results, timeout=30 + LONG * LONGS)
    for result in longs:
        result.get(timeout=30)
    return Peak(waits, len({result._get_task_meta().get("worker") for result in longs}))


def lone_worker(stack: Stack) -> LoneWorker:
    helpers.add_workers(stack, [WorkerSpec(pool="prefork", concurrency=2 if kind == "long" else 1, name=f"lw-{case}-{i}",
                                           queues=(queue(case, kind),), settings=settings, extra_args=args)
                                for case, workers in CASES.items() for i, (kind, settings, args) in enumerate(workers, 1)])
    fair = next(w for w in stack.workers if w.spec.extra_args).command_line()
    with ThreadPoolExecutor(max_workers=len(CASES)) as pool:  # a peak on every case at the same time
        peaks = dict(zip(CASES, pool.map(lambda case: peak(stack, case), CASES)))
    helpers.stop_workers(stack, "lw-")
    return LoneWorker(fair, peaks)
