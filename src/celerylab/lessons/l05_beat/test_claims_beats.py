"""N Beats publish N copies; worker -B is a Beat; RedBeat's lock: one sender, failover timed after SIGTERM and SIGKILL."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from celerylab.lessons.l05_beat import helpers, scenarios
from celerylab.stack import WorkerSpec

pytestmark = pytest.mark.live
WINDOW = 4.0


def embedded(n: int) -> WorkerSpec:
    return WorkerSpec(pool="prefork", concurrency=2, extra_args=("-B", "-s", f"embedded{n}-schedule"))


def test_each_beat_is_one_more_copy():
    cases = {1: dict(beats=1), 2: dict(beats=2), 3: dict(beats=3), "B": dict(workers=[embedded(1), embedded(2)])}
    with ThreadPoolExecutor() as pool:
        stacks = dict(zip(cases, pool.map(lambda options: helpers.start(**options), cases.values())))
    try:
        t0, t1 = helpers.wait_window(WINDOW)
        for case, stack in stacks.items():
            beats = 2 if case == "B" else case
            rows = helpers.runs(stack, t0, t1)
            assert len(helpers.per_sender(rows)) == beats
            assert helpers.steady(rows, WINDOW), (case, helpers.per_sender(rows))
            if case == 3:
                assert helpers.close_pairs(rows) >= 4
        time.sleep(helpers.PERIOD_SECONDS)
        for case, stack in stacks.items():  # one per period per Beat; a loaded machine may add a late send
            sent = helpers.average_per_period(stack, t0, time.time())
            assert sent == 1 if case == 1 else sent >= (2 if case == "B" else case), (case, sent)
    finally:
        for stack in stacks.values():
            stack.close()


def test_redbeat_one_sender_then_failover():
    with helpers.start(beats=3, beat_scheduler="redbeat.RedBeatScheduler") as stack:
        holder = scenarios.lock_holder(stack)
        t0, t1 = helpers.wait_window(WINDOW)
        rows = helpers.runs(stack, t0, t1)
        assert helpers.per_sender(rows) == {holder.name: pytest.approx(WINDOW, abs=1)}
        term = scenarios.takeover(stack, holder, holder.terminate)
        assert term["seconds"] < 2.0  # the next retry, every max_interval (1 s)
        assert "Releasing lock" in holder.logs
        assert helpers.send_gap(stack, t0, holder.name, term["successor"].name) < 2.5
        kill = scenarios.takeover(stack, term["successor"], term["successor"].kill)
        assert kill["ttl_before"] - 0.3 <= kill["seconds"] <= kill["ttl_before"] + 1.6
        gap = helpers.send_gap(stack, t0, term["successor"].name, kill["successor"].name)
        assert gap >= 3.0  # the ticks of the lock's remaining TTL were never published
