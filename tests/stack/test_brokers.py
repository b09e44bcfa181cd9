"""Each broker kind round-trips tasks and says which kind it is."""
from __future__ import annotations

import pytest

from celerylab.stack import Stack

pytestmark = pytest.mark.live


@pytest.mark.parametrize("kind", [pytest.param("url", marks=pytest.mark.needs("machine-redis")),
                                  pytest.param("redis-server", marks=pytest.mark.needs("redis-server")),
                                  pytest.param("packaged", marks=pytest.mark.needs("packaged-redis")),
                                  "embedded"])
def test_each_broker_kind_round_trips_tasks(kind, machine_redis):
    url = machine_redis if kind == "url" else None
    with Stack.start("celerylab.stack.smoke", broker_kind=kind, broker_url=url) as stack:
        assert stack.broker.kind == kind
        assert stack.app.send_task("celerylab.smoke.add", (2, 3)).get(timeout=10) == 5
        results = [stack.app.send_task("celerylab.smoke.add", (i, i)) for i in range(20)]
        assert [r.get(timeout=10) for r in results] == [2 * i for i in range(20)]
        assert stack.broker.version in stack.describe()
        assert stack.broker.real_redis is (kind != "embedded")
        assert stack.broker_note() == "" if stack.broker.real_redis else "fakeredis" in stack.broker_note()


@pytest.mark.needs("machine-redis")
def test_url_from_environment_wins(monkeypatch, machine_redis):
    monkeypatch.setenv("CELERYLAB_BROKER_URL", machine_redis)
    with Stack.start("celerylab.stack.smoke", timeline=False) as stack:
        assert stack.broker.kind == "url"
        assert stack.app.send_task("celerylab.smoke.ping").get(timeout=10) == "pong"


def test_timeline_records_the_task_lifecycle():
    with Stack.start("celerylab.stack.smoke", broker_kind="embedded") as stack:
        task_id = stack.app.send_task("celerylab.smoke.add", (1, 1)).id
        stack.timeline.wait_for("task-succeeded", task_id)
        # the worker's events, in its order (the producer's task-sent travels apart and may arrive after them)
        kinds = [e.type for e in stack.timeline.events(task_id) if e.type != "task-sent"]
        assert kinds[-3:] == ["task-received", "task-started", "task-succeeded"]
        assert all(e.name == "celerylab.smoke.add" for e in stack.timeline.events(task_id))
