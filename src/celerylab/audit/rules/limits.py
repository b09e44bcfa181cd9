"""Rules on time limits: none at all, a soft limit that cannot fire, a zero that disables, a pool that ignores them."""
from __future__ import annotations

from celerylab.audit.model import Hit
from celerylab.audit.registry import rule

# Pools whose workers never enforce time limits (celery/concurrency/solo.py declares no timeouts; thread.py has none).
UNENFORCED_POOLS = {"solo", "threads"}


def names(tasks) -> str:
    return ", ".join(tasks)


@rule("CL201", "no-time-limit", "medium", "practice")
def no_time_limit(view):
    unlimited = [name for name, task in view.tasks.items() if not any(view.time_limits(task))]
    if unlimited:
        yield Hit("task_time_limit", {"count": len(unlimited), "tasks": names(unlimited)})


@rule("CL202", "soft-limit-not-below-hard", "medium", "defect")
def soft_limit_not_below_hard(view):
    conf = view.conf
    globally = bool(conf.task_time_limit and conf.task_soft_time_limit
                    and conf.task_soft_time_limit >= conf.task_time_limit)
    if globally:
        yield Hit("task_soft_time_limit", {"soft": conf.task_soft_time_limit, "hard": conf.task_time_limit})
    for name, task in view.tasks.items():
        hard, soft = view.time_limits(task)
        if soft and hard and soft >= hard and not (globally and (soft, hard) == (conf.task_soft_time_limit,
                                                                                  conf.task_time_limit)):
            yield Hit(name, {"soft": soft, "hard": hard})


@rule("CL203", "zero-time-limit", "medium", "defect")
def zero_time_limit(view):
    for name, task in view.tasks.items():
        limits = dict(zip(("time_limit", "soft_time_limit"), view.time_limits(task)))
        for option, setting in (("time_limit", "task_time_limit"), ("soft_time_limit", "task_soft_time_limit")):
            if limits[option] == 0 and limits[option] is not False:
                yield Hit(f"{name}.{option}", {"task": name, "option": option,
                                               "global_value": view.conf.get(setting)})


@rule("CL204", "limits-not-enforced-by-pool", "high", "defect")
def limits_not_enforced_by_pool(view):
    pool = str(view.conf.worker_pool or "prefork").lower()
    if pool in UNENFORCED_POOLS:
        limited = [name for name, task in view.tasks.items() if any(view.time_limits(task))]
        if limited:
            yield Hit("worker_pool", {"pool": pool, "count": len(limited), "tasks": names(limited)})
