"""A leaking task grows the worker; max_tasks/max_memory per child bound it; results pile up without expiry."""
from __future__ import annotations

import gc
from concurrent.futures import ThreadPoolExecutor

import psutil
import pytest

from celerylab.lessons.l07_resilience import helpers
from celerylab.lessons.l07_resilience.experiments.failure_ttl import failure_ttl
from celerylab.lessons.l07_resilience.experiments.grow import grow
from celerylab.lessons.l07_resilience.experiments.key_cost import key_cost
from celerylab.lessons.l07_resilience.experiments.result_keys import result_keys
from celerylab.stack import WorkerSpec

pytestmark = pytest.mark.live


def test_child_limits_bound_the_leak(observe):
    limits = {"none": {}, "tasks": {"worker_max_tasks_per_child": 4}, "memory": {"worker_max_memory_per_child": 90_000}}
    stacks = helpers.start_many({name: {"workers": [WorkerSpec(pool="prefork", concurrency=1, settings=settings)]}
                                 for name, settings in limits.items()})
    try:
        with ThreadPoolExecutor() as pool:
            grown = dict(zip(limits, pool.map(lambda name: vars(grow(stacks[name], tasks=6, megabytes=10)), limits)))
    finally:
        gc.collect()  # results reclaimed while Redis is up: before Celery 5.7, each one reclaimed later waits ~19 s
        for stack in stacks.values():
            stack.close()
    observe.equal(none_children=(grown["none"]["children"], 1), tasks_children=(grown["tasks"]["children"], 2),
                  memory_replaced_its_child=(grown["memory"]["children"] >= 2, True),
                  none_grew_50_mb=(grown["none"]["peak"] >= 50, True),
                  tasks_peak_under_45_mb=(grown["tasks"]["peak"] <= 45, True),
                  memory_peak_under_55_mb=(grown["memory"]["peak"] <= 55, True),
                  # one replacement: up to a maintain_pool period (5 s) plus a child's start
                  replacement_costs_under_10_s=(all(grown[limited]["seconds"] - grown["none"]["seconds"] < 10
                                                    for limited in ("tasks", "memory")), True),
                  why=grown)


def test_a_memory_limit_below_a_fresh_child_replaces_it_after_every_task(observe):
    """`worker_max_memory_per_child=40000` (39 MB) under a fresh child's resident memory: one child per task."""
    spec = WorkerSpec(pool="prefork", concurrency=1, settings={"worker_max_memory_per_child": 40_000})
    with helpers.start(workers=[spec]) as stack:
        fresh = psutil.Process(stack.workers[0].wait_pool_ready()[0]).memory_info().rss
        try:
            run = vars(grow(stack, tasks=4, megabytes=0))  # tasks that leak nothing
        finally:
            gc.collect()  # results reclaimed while Redis is up: before Celery 5.7, each one reclaimed later waits ~19 s
    # the premise: a fresh child is already over the limit; then every task ran in a new child
    observe.equal(fresh_child_over_the_limit=(fresh > 40_000 * 1024, True), children_for_4_tasks=(run["children"], 4),
                  why=f"a fresh child's {fresh} bytes; {run}")


@pytest.mark.needs("real-redis")
def test_result_keys_expire_by_ttl_unless_result_expires_is_none(observe):
    with helpers.start() as stack:
        stack.add_worker(WorkerSpec(queues=("forever",), settings={"result_expires": None}))
        try:
            rows = {row["setting"]: row for row in result_keys(stack).rows}
        finally:
            gc.collect()  # results reclaimed while Redis is up: before Celery 5.7, each one reclaimed later waits ~19 s
        autoexpire = stack.app.backend.supports_autoexpire
    default, never = rows["result_expires=86400"], rows["result_expires=None"]
    observe.equal(default_result_keys=(default["result_keys"], 100), never_result_keys=(never["result_keys"], 100),
                  default_ttl_hours=(default["ttl_hours"], [24]), never_ttl_hours=(never["ttl_hours"], [-1]),
                  about_310_bytes_a_key=(all(250 < row["bytes_per_key"] < 400 for row in rows.values()), True),
                  supports_autoexpire=(autoexpire, True), why=rows)


@pytest.mark.needs("real-redis")
@pytest.mark.filterwarnings("ignore:Call to deprecated setex")  # Celery's own call into redis-py, 1000 times
def test_used_memory_grows_more_per_result_key_than_memory_usage_says(observe):
    """1000 results stored as a worker stores them (and the first, before the measure), on a broker with nothing else."""
    with helpers.start(workers=0, settings={"result_expires": 86_400}) as stack:  # each key with its TTL, as by default
        cost = key_cost(stack, 1000)
    observe.equal(keys=(cost.keys, 1001), memory_usage_250_to_400_b=(250 < cost.memory_usage < 400, True),
                  used_memory_5_to_50_percent_more=(1.05 * cost.memory_usage < cost.used_memory
                                                    < 1.5 * cost.memory_usage, True),
                  why=cost)


@pytest.mark.needs("real-redis")
def test_result_failure_expires_gives_failures_their_own_ttl(observe):
    """`result_failure_expires` (new in Celery 5.7): the worker stores a failure with that TTL, a success with `result_expires`."""
    with helpers.start(settings={"result_failure_expires": 60}) as stack:
        expiry = failure_ttl(stack)
        gc.collect()  # results reclaimed while Redis is up: before Celery 5.7, each one reclaimed later waits ~19 s
    ttls = expiry.ttls
    observe.equal(states=(expiry.states, ["FAILURE", "SUCCESS"]),
                  failure_ttl_at_most_60_s=(0 < ttls["failure"] <= 60, True),
                  success_ttl_about_1_day=(86_000 < ttls["success"] <= 86_400, True), why=f"TTLs {ttls}")
