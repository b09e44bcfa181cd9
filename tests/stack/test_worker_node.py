"""Worker nodes: prefork children killed and replaced, warm and cold shutdown, memory, prefetch and extra arguments."""
from __future__ import annotations

import psutil
import pytest

from celerylab.stack import Stack, StackError, WorkerSpec
from celerylab.stack.celery_commands import worker_argv

pytestmark = pytest.mark.live
SMOKE = "celerylab.stack.smoke"


def test_prefork_child_killed_and_replaced():
    with Stack.start(SMOKE, workers=[WorkerSpec(pool="prefork", concurrency=2)], timeline=False) as stack:
        worker = stack.workers[0]
        children = worker.wait_pool_ready(timeout=10)
        assert len(children) == 2 and children == worker.child_pids()
        killed = worker.kill_child(0)
        assert killed == children[0] and killed not in worker.child_pids()
        replaced = worker.wait_pool_ready(timeout=10)
        assert len(replaced) == 2 and killed not in replaced
        pids = {stack.app.send_task("celerylab.smoke.whoami").get(timeout=10)["pid"] for _ in range(4)}
        assert pids <= set(replaced)
        main_only = psutil.Process(worker.pid).memory_info().rss
        assert worker.rss_total() > main_only > 10 * 2**20


def test_warm_shutdown_finishes_the_running_task_cold_does_not():
    # prefork: a solo worker publishes task-started only once the task has returned.
    with Stack.start(SMOKE, workers=[WorkerSpec(pool="prefork", concurrency=1)]) as stack:
        worker = stack.workers[0]
        running = stack.app.send_task("celerylab.smoke.sleep", (1,))
        stack.timeline.wait_for("task-started", running.id, timeout=10)
        assert worker.shutdown() == 0
        assert running.get(timeout=5) == 1
        worker.restart()
        aborted = stack.app.send_task("celerylab.smoke.sleep", (30,))
        stack.timeline.wait_for("task-started", aborted.id, timeout=10)
        assert worker.shutdown(cold=True, timeout=10) is not None
        assert stack.timeline.count("task-succeeded", aborted.id) == 0


def test_solo_worker_has_no_pool_children():
    with Stack.start(SMOKE, timeline=False, broker_kind="embedded") as stack:
        worker = stack.workers[0]
        assert worker.child_pids() == [] and worker.wait_pool_ready(timeout=1) == []
        with pytest.raises(StackError):
            worker.kill_child()


def test_prefetch_multiplier_becomes_the_worker_setting():
    with Stack.start(SMOKE, workers=[WorkerSpec(), WorkerSpec(queues=("tight",), prefetch_multiplier=1)],
                     timeline=False, broker_kind="embedded") as stack:
        name = "worker_prefetch_multiplier"
        assert stack.app.send_task("celerylab.smoke.setting", (name,)).get(timeout=10) == 4
        assert stack.app.send_task("celerylab.smoke.setting", (name,), queue="tight").get(timeout=10) == 1


def test_command_line_shows_the_flags_without_the_random_node_name():
    from celerylab.stack.worker_node import WorkerNode
    spec = WorkerSpec(pool="prefork", concurrency=2, extra_args=("--without-heartbeat",))
    node = WorkerNode("worker1", worker_argv("lesson.tasks", spec, "w1-abc123@%h"), spec=spec,
                      nodename="w1-abc123@%h")
    line = node.command_line()
    assert line.startswith("celery -A lesson.tasks worker -P prefork -c 2")
    assert "abc123" not in line and line.endswith("--without-heartbeat")
