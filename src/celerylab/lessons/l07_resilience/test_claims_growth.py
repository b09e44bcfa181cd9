"""A leaking task grows the worker; max_tasks/max_memory per child bound it; results pile up without expiry."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from celerylab.lessons.l07_resilience import helpers, scenarios
from celerylab.stack import WorkerSpec

pytestmark = pytest.mark.live


def test_child_limits_bound_the_leak():
    limits = {"none": {}, "tasks": {"worker_max_tasks_per_child": 4}, "memory": {"worker_max_memory_per_child": 90_000}}
    stacks = helpers.start_many({name: {"workers": [WorkerSpec(pool="prefork", concurrency=1, settings=settings)]}
                                 for name, settings in limits.items()})
    try:
        with ThreadPoolExecutor() as pool:
            grown = dict(zip(limits, pool.map(lambda name: scenarios.grow(stacks[name], tasks=6, megabytes=10), limits)))
    finally:
        for stack in stacks.values():
            stack.close()
    assert grown["none"]["peak"] >= 50 and grown["none"]["children"] == 1, grown["none"]
    assert grown["tasks"]["peak"] <= 45 and grown["tasks"]["children"] == 2, grown["tasks"]
    assert grown["memory"]["peak"] <= 55 and grown["memory"]["children"] >= 2, grown["memory"]
    for limited in ("tasks", "memory"):  # one replacement: up to a maintain_pool period (5 s) plus a child's start
        assert grown[limited]["seconds"] - grown["none"]["seconds"] < 10, grown


@pytest.mark.needs("redis-server")
def test_result_keys_expire_by_ttl_unless_result_expires_is_none():
    stacks = helpers.start_many({"default": {}, "never": {"settings": {"result_expires": None}}})
    try:
        ttls = {}
        for name, stack in stacks.items():
            kept = [stack.app.send_task("l07.echo", (n,)) for n in range(20)]
            for n in range(20):
                stack.app.send_task("l07.echo", (n,), ignore_result=True)
            [result.get(timeout=30) for result in kept]
            client = helpers.keys(stack)
            found = client.keys(f"{stack.namespace}celery-task-meta-*")
            assert len(found) == 20
            ttls[name] = {client.ttl(key) for key in found}
            assert all(250 < client.memory_usage(key) < 400 for key in found)  # "~310 bytes a key"
            assert stack.app.backend.supports_autoexpire
    finally:
        for stack in stacks.values():
            stack.close()
    assert all(86_000 < ttl <= 86_400 for ttl in ttls["default"]), ttls
    assert ttls["never"] == {-1}
