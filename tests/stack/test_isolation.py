"""Four stacks at once, two of them sharing one Redis, without cross-talk."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from celerylab.stack import Stack

pytestmark = pytest.mark.live


@pytest.mark.needs("machine-redis", "redis-server")
def test_four_stacks_at_once_do_not_cross_talk(machine_redis):
    kinds = [("url", machine_redis), ("url", machine_redis), ("redis-server", None), ("embedded", None)]
    with ThreadPoolExecutor(4) as pool:
        stacks = list(pool.map(lambda kv: Stack.start("celerylab.stack.smoke", broker_kind=kv[0],
                                                      broker_url=kv[1], timeline=False), kinds))
    try:
        for _ in range(5):
            for stack in stacks:
                answer = stack.app.send_task("celerylab.smoke.whoami").get(timeout=30)
                assert answer["pid"] == stack.workers[0].pid
                assert answer["namespace"] == stack.namespace
    finally:
        for stack in stacks:
            stack.close()


def test_client_module_keeps_the_app_module_out_of_this_process(tmp_path):
    import sys

    marker = tmp_path / "imported-by"
    (tmp_path / "only_in_workers.py").write_text(
        "import os, pathlib\n"
        f"pathlib.Path({str(marker)!r}).write_text(str(os.getpid()))\n"
        "from celerylab.stack.smoke import app\n"
    )
    with Stack.start("only_in_workers", client="celerylab.stack.smoke", pythonpath=(tmp_path,),
                     broker_kind="embedded", timeline=False) as stack:
        assert stack.app.send_task("celerylab.smoke.add", (1, 2)).get(timeout=30) == 3
        assert int(marker.read_text()) == stack.workers[0].pid
    assert "only_in_workers" not in sys.modules


def test_closing_a_later_stack_gives_the_module_app_back_to_the_earlier_one():
    """A check's stack started and closed inside a lesson leaves `tasks.x.delay()` on the lesson's stack."""
    from celerylab.stack import smoke

    with Stack.start("celerylab.stack.smoke", timeline=False, broker_kind="embedded") as lesson:
        with Stack.start("celerylab.stack.smoke", timeline=False, broker_kind="embedded") as check:
            assert smoke.add.delay(1, 2).get(timeout=30) == 3
            assert check.broker.url != lesson.broker.url
        assert smoke.add.delay(2, 3).get(timeout=30) == 5


def test_the_lesson_stack_still_sends_after_a_check_stack_came_and_went():
    """The lesson used its stack before the check: its pool is kombu's, shared by the client and the module app."""
    from celerylab.stack import smoke

    with Stack.start("celerylab.stack.smoke", timeline=False, broker_kind="embedded") as lesson:
        assert smoke.add.delay(1, 2).get(timeout=30) == 3
        assert lesson.app.send_task("celerylab.smoke.add", (1, 2)).get(timeout=30) == 3
        with Stack.start("celerylab.stack.smoke", timeline=False, broker_kind="embedded"):
            assert smoke.add.delay(1, 2).get(timeout=30) == 3
        assert lesson.app.send_task("celerylab.smoke.add", (2, 3)).get(timeout=30) == 5
        assert smoke.add.delay(2, 3).get(timeout=30) == 5


def test_a_closed_stack_leaves_no_pool_for_its_broker_in_kombus_registry():
    """A later broker on the same port (the kernel reuses them) must get a fresh pool, not the closed one."""
    from kombu import pools

    from celerylab.stack import smoke

    with Stack.start("celerylab.stack.smoke", timeline=False, broker_kind="embedded") as stack:
        assert smoke.add.delay(1, 2).get(timeout=30) == 3
        assert stack.app.send_task("celerylab.smoke.add", (1, 2)).get(timeout=30) == 3
        port = stack.app.connection_for_write().port
        assert [key for key in pools.connections if port in list(key)]
    assert not [key for group in (pools.connections, pools.producers) for key in group if port in list(key)]
