"""Adding nodes: queue-bound workers get only their queue; N Beats fire N times, RedBeat's lock lets one fire."""
from __future__ import annotations

import time

import pytest

from celerylab.stack import Stack, WorkerSpec

pytestmark = pytest.mark.live
SMOKE = "celerylab.stack.smoke"
TICK = "celerylab.smoke.tick"


def test_task_routed_to_heavy_runs_on_the_heavy_worker_only():
    with Stack.start(SMOKE, workers=[WorkerSpec(), WorkerSpec(queues=("heavy",))], timeline=False,
                     broker_kind="embedded") as stack:
        default, heavy = stack.workers
        assert heavy.spec.queues == ("heavy",)
        routed = [stack.app.send_task("celerylab.smoke.whoami", queue="heavy") for _ in range(4)]
        assert {r.get(timeout=10)["pid"] for r in routed} == {heavy.pid}
        plain = [stack.app.send_task("celerylab.smoke.whoami") for _ in range(4)]
        assert {r.get(timeout=10)["pid"] for r in plain} == {default.pid}


def runs_in(stack: Stack, seconds: float) -> int:
    """Tick runs whose worker timestamp falls in the next `seconds` (waits for the first run after)."""
    start = time.time()
    end = start + seconds
    seen = stack.timeline.count("task-succeeded", name=TICK)
    while True:
        seen += 1
        events = stack.timeline.wait_for("task-succeeded", name=TICK, count=seen, timeout=seconds + 5)
        if events[-1].timestamp > end:
            return sum(start <= e.timestamp <= end for e in events)


def test_two_file_beats_run_the_schedule_twice():
    with Stack.start(SMOKE, beats=1, env={"SMOKE_TICK": "1"}) as stack:
        stack.timeline.wait_for("task-succeeded", name=TICK, timeout=10)
        one = runs_in(stack, 4)
        second = stack.add_beat()
        assert second.schedule_path != stack.beats[0].schedule_path
        second.wait_for_log(r"Sending due task smoke-tick", timeout=10)
        two = runs_in(stack, 4)
        assert 3 <= one <= 5 and two / one >= 1.6, (one, two)


def test_two_redbeat_beats_one_holds_the_lock_the_other_takes_over():
    with Stack.start(SMOKE, env={"SMOKE_TICK": "1"}) as stack:
        first = stack.add_beat("redbeat.RedBeatScheduler", lock_timeout=3)
        first.wait_for_log(r"Sending due task smoke-tick", timeout=10)
        second = stack.add_beat("redbeat.RedBeatScheduler", lock_timeout=3)
        assert second.scheduler == "redbeat.RedBeatScheduler"
        assert runs_in(stack, 3) <= 4
        assert "Sending due task" not in second.logs
        offset = second.log_offset()
        first.kill()
        second.wait_for_log(r"Sending due task smoke-tick", timeout=10, since=offset)
