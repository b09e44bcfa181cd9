"""Lesson 06's measurements: pairs of workers per prefetch setting, bursts of one long task and short ones."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

from celerylab.lessons.l06_architecture import helpers, tasks
from celerylab.stack import Stack, WorkerSpec

LONG = 2.0  # seconds: the long task
SHORTS = 6  # short tasks sent right after it

#: Worker settings compared for prefetch starvation (each on a pair of prefork -c 1 workers and its own queue).
PREFETCH_CASES = {
    "default": {},
    "multiplier_1": {"worker_prefetch_multiplier": 1},
    "multiplier_1_acks_late": {"worker_prefetch_multiplier": 1, "task_acks_late": True},
    "disable_prefetch": {"worker_disable_prefetch": True},
}


def add_pairs(stack: Stack, cases: dict[str, dict]) -> dict[str, str]:
    """Two prefork -c 1 workers per case, consuming a queue of their own ('pf-<case>'): {case: queue}."""
    specs = [WorkerSpec(pool="prefork", concurrency=1, queues=(f"pf-{case}",), name=f"{case}-{i}",
                        settings={k: v for k, v in settings.items() if k != "args"},
                        extra_args=tuple(settings.get("args", ())))
             for case, settings in cases.items() for i in (1, 2)]
    with ThreadPoolExecutor(max_workers=len(specs)) as pool:
        list(pool.map(stack.add_worker, specs))
    return {case: f"pf-{case}" for case in cases}


def prefetch_counts(stack: Stack, queues: dict[str, str]) -> dict[str, int]:
    """Each case's prefetch count, as its first worker reports it (`celery inspect stats`)."""
    names = {case: f"celery@{case}-1" for case in queues}
    stats: dict = {}

    def ask() -> bool:  # a busy worker can miss one 2 s round: ask again the ones that did not answer
        missing = [name for name in names.values() if name not in stats]
        stats.update(stack.app.control.inspect(destination=missing, timeout=2).stats() or {})
        return all(name in stats for name in names.values())

    helpers.until(ask, timeout=20)
    return {case: stats.get(name, {}).get("prefetch_count", "?") for case, name in names.items()}


def received_by(stack: Stack, result, timeout: float = 15) -> str | None:
    """The worker whose log says it received this task (waits for it): it holds the message now."""
    needle = f"[{result.id}] received"
    found = helpers.until(lambda: next((w.hostname for w in stack.workers if needle in w.logs), None), timeout=timeout)
    return found if found is None or "@" in found else f"celery@{found}"


def burst(stack: Stack, queue: str, long: float = LONG, shorts: int = SHORTS, app=None) -> dict:
    """One long task, then (once a worker holds it) `shorts` short ones on the same queue: who waited how long."""
    app = app or tasks.app
    long_result = app.send_task("l06.long", (long,), queue=queue)
    holder = received_by(stack, long_result)
    sent, results = {}, {}
    for i in range(shorts):
        sent[i] = time.time()
        results[i] = app.send_task("l06.short", (i,), queue=queue)
    waits = helpers.waits(sent, results)
    long_result.get(timeout=30)
    ran_on = {i: result._get_task_meta().get("worker") for i, result in results.items()}
    return {"waits": waits, "behind_long": sum(1 for w in ran_on.values() if w == holder),
            "holder": holder}


def peak(stack: Stack, routes: dict[str, str], longs: int = 2, shorts: int = SHORTS, app=None) -> dict:
    """`longs` long tasks, then (once every one was received) `shorts` short ones, each to the queue its route names.

    Returns each short task's wait (None if it never started in time: say, a queue no worker consumes)
    and every task's state.
    """
    app = app or tasks.app
    long_results = [app.send_task("l06.long", (LONG,), queue=routes["l06.long"]) for _ in range(longs)]
    for result in long_results:
        received_by(stack, result, timeout=5)
    sent, results = {}, {}
    for i in range(shorts):
        sent[i] = time.time()
        results[i] = app.send_task("l06.short", (i,), queue=routes["l06.short"])
    deadline = time.monotonic() + 10 + LONG * longs  # one budget for all: a queue nobody consumes costs it once
    remaining = lambda: max(0.1, deadline - time.monotonic())  # noqa: E731
    waits = {}
    for i, result in results.items():
        try:
            waits[i] = result.get(timeout=remaining()) - sent[i]
        except Exception:
            waits[i] = None
    states = []
    for result in long_results:
        try:
            result.get(timeout=remaining())
        except Exception:
            pass
        states.append(result.state)
    return {"waits": waits, "long_states": states, "short_states": [result.state for result in results.values()]}


def bursts(stack: Stack, queues: dict[str, str]) -> dict[str, dict]:
    """A burst on every case's queue at the same time (tasks sleep: the cases barely compete for CPU)."""
    with ThreadPoolExecutor(max_workers=len(queues)) as pool:
        return dict(zip(queues, pool.map(lambda q: burst(stack, q), queues.values())))


def stop_pairs(stack: Stack) -> None:
    """Stop (SIGTERM, all at once) the workers add_pairs started; the compose layout stays."""
    pairs = [w for w in stack.workers if w.spec.queues and w.spec.queues[0].startswith("pf-")]
    with ThreadPoolExecutor(max_workers=max(1, len(pairs))) as pool:
        list(pool.map(lambda worker: worker.terminate(), pairs))
