"""The long report check's view of its worker: the pool, concurrency and prefetch it runs with, as it reports them."""
from __future__ import annotations

from celerylab.polling import until

#: What the statement fixes: one prefork worker, concurrency 1, default prefetch (worker_prefetch_multiplier 4 x 1).
FIXED = {"pool": "prefork", "concurrency": 1, "prefetch_count": 4}
ASKED_WITHIN = 15.0  # seconds the worker may take to answer `inspect stats` (a loaded worker misses the 1 s replies)


def settings(stats: dict) -> dict:
    """The pool, concurrency and prefetch count of one worker's `inspect stats` answer (what its consumer asked the
    broker for, whatever the module or a signal changed: the qos it runs with, not the configuration read)."""
    pool = stats.get("pool") or {}
    implementation = str(pool.get("implementation") or ("prefork" if "processes" in pool else ""))
    return {"pool": implementation.split(":")[0].rsplit(".", 1)[-1] or None,
            "concurrency": pool.get("max-concurrency"),
            "prefetch_count": stats.get("prefetch_count")}


def runs_with(stack, timeout: float = ASKED_WITHIN) -> dict | None:
    """The settings (`settings`) the stack's first worker runs with, as it answers `inspect stats`; None if it never
    answered within `timeout` s."""
    hostname = stack.workers[0].hostname
    answer = until(lambda: (stack.app.control.inspect(destination=[hostname], timeout=1.0).stats() or {})
                   .get(hostname), timeout, step=0.2)
    return settings(answer) if answer else None


def as_fixed(readings: list[dict | None]) -> dict | None:
    """The first of `readings` that differs from FIXED (None: one the worker never answered), else FIXED."""
    return next((reading for reading in readings if reading != FIXED), FIXED)
