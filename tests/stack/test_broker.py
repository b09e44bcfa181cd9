"""Restarting the broker under a running stack: workers resume; data kept or not; brokers the stack does not own refuse."""
from __future__ import annotations

import pytest
import redis

from celerylab.i18n import set_lang
from celerylab.stack import Stack, StackError

pytestmark = pytest.mark.live
SMOKE = "celerylab.stack.smoke"


def add(stack: Stack, x: int) -> int:
    return stack.app.send_task("celerylab.smoke.add", (x, x)).get(timeout=20)


@pytest.mark.needs("redis-server")
def test_private_redis_restart_worker_resumes_and_data_kept_on_request():
    with Stack.start(SMOKE, broker_kind="redis-server", timeline=False) as stack:
        client = redis.Redis.from_url(stack.broker.url)
        assert add(stack, 1) == 2
        port = stack.broker.url
        client.set("marker", "1")
        stack.broker.restart(keep_data=True)
        assert stack.broker.url == port and client.get("marker") == b"1"
        assert add(stack, 2) == 4
        stack.broker.restart()
        assert client.get("marker") is None
        assert add(stack, 3) == 6
        stack.broker.stop()
        with pytest.raises(redis.ConnectionError):
            stack.broker.ping(timeout=0.5)
        stack.broker.start()
        assert add(stack, 4) == 8
        client.close()


def test_embedded_restart_worker_and_timeline_resume():
    with Stack.start(SMOKE, broker_kind="embedded") as stack:
        assert add(stack, 1) == 2
        url = stack.broker.url
        stack.broker.restart()
        assert stack.broker.url == url and add(stack, 5) == 10
        stack.timeline.sync()
        task_id = stack.app.send_task("celerylab.smoke.add", (1, 1)).id
        stack.timeline.wait_for("task-succeeded", task_id, timeout=20)
        with pytest.raises(StackError):
            stack.broker.restart(keep_data=True)


@pytest.mark.needs("machine-redis")
def test_a_broker_given_by_url_is_not_restarted(machine_redis):
    set_lang("en")
    try:
        with Stack.start(SMOKE, broker_url=machine_redis, workers=0, timeline=False) as stack:
            with pytest.raises(StackError, match="(?i)cannot restart a broker this stack does not own"):
                stack.broker.restart()
    finally:
        set_lang("pt")
