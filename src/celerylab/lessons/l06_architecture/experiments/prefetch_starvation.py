"""Two prefork -c 1 workers per prefetch setting, each pair on a queue of its own: one long task, then short ones."""
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from celerylab.lessons.l06_architecture import helpers, tasks
from celerylab.stack import Stack

LONG = 2.0  # seconds: the long task
SHORTS = 6  # short tasks sent right after it
CASES = {"default": {}, "multiplier_1": {"worker_prefetch_multiplier": 1},
         "multiplier_1_acks_late": {"worker_prefetch_multiplier": 1, "task_acks_late": True},
         "disable_prefetch": {"worker_disable_prefetch": True}}


@dataclass
class Burst:
    waits: dict[int, float]  # short task -> seconds from its send to its start
    behind_long: int         # short tasks that ran on the worker holding the long one
    holder: str | None       # that worker


@dataclass
class PrefetchStarvation:
    prefetch_count: dict[str, object]  # case -> what its first worker tells `inspect stats`
    bursts: dict[str, Burst]           # case -> its burst


def burst(stack: Stack, queue: str, long: float = LONG, shorts: int = SHORTS) -> Burst:
    long_result = tasks.app.send_task("l06.long", (long,), queue=queue)
    holder = helpers.received_by(stack, long_result)  # a worker holds the long task now
    sent, results = {}, {}
    for i in range(shorts):
        sent[i] = time.time()
        results[i] = tasks.app.send_task("l06.short", (i,), queue=queue)
    waits = helpers.waits(sent, results)
    long_result.get(timeout=30)
    ran_on = [result._get_task_meta().get("worker") for result in results.values()]
    return Burst(waits, ran_on.count(holder), holder)


def prefetch_starvation(stack: Stack, cases: dict = CASES) -> PrefetchStarvation:
    queues = helpers.add_pairs(stack, cases)  # 2 prefork -c 1 workers per case, consuming 'pf-<case>'
    names = [f"celery@{case}-1" for case in cases]
    stats: dict = {}  # worker -> what it answered

    def ask() -> bool:  # a busy worker can miss one 2 s round: ask again the ones that did not answer
        missing = [name for name in names if name not in stats]
        stats.update(stack.app.control.inspect(destination=missing, timeout=2).stats() or {})
        return all(name in stats for name in names)

    helpers.until(ask, timeout=20)
    counts = {case: stats.get(f"celery@{case}-1", {}).get("prefetch_count", "?") for case in cases}
    with ThreadPoolExecutor(max_workers=len(queues)) as pool:  # a burst on every queue at the same time
        bursts = dict(zip(queues, pool.map(lambda queue: burst(stack, queue), queues.values())))
    return PrefetchStarvation(counts, bursts)
