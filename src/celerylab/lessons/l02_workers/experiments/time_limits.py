"""A task with a 1 s soft time limit and one with a 1 s hard limit, each running 1.5 s, on prefork, solo and threads."""
from dataclasses import dataclass

from celerylab.lessons.l02_workers import helpers, runs, tasks, views
from celerylab.stack import Stack

POOLS = ("prefork", "solo", "threads")


@dataclass
class TimeLimits:
    pool: str
    soft_time_limit: str  # the soft_limited task's state, with the exception's class when it failed
    cleanup_ran: bool     # its `except SoftTimeLimitExceeded` block ran
    time_limit: str       # the hard_limited task's state
    log_warning: bool     # the worker's log mentions a time limit


def time_limits(lab: Stack, seconds: float = 1.5) -> list[TimeLimits]:
    with helpers.experiment(lab, *[helpers.worker(pool, concurrency=1 if pool == "solo" else 2, pool=pool)
                                   for pool in POOLS]) as s:
        sent = {(pool, kind): task.apply_async((f"{kind}-{pool}", seconds), queue=pool)
                for pool in POOLS for kind, task in (("soft", tasks.soft_limited), ("hard", tasks.hard_limited))}
        for result in sent.values():
            result.get(timeout=10, propagate=False)
        return [TimeLimits(pool, views.outcome(sent[pool, "soft"]), bool(runs.events(s, f"soft-{pool}", "cleanup")),
                           views.outcome(sent[pool, "hard"]), "time limit" in worker.logs.lower())
                for pool, worker in zip(POOLS, s.workers)]
