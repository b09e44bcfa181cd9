"""The production-shaped app: three queues, demo tasks routed per queue, one Beat entry, config from REDIS_URL."""
from __future__ import annotations

import subprocess
import sys

import pytest

from celerylab.deploy.app import QUEUES, app


def queue_of(task_name: str) -> str:
    return app.amqp.router.route({}, task_name)["queue"].name


def test_queues_and_routes():
    assert QUEUES == ("default", "priority", "heavy")
    assert {queue.name for queue in app.conf.task_queues} == set(QUEUES)
    assert queue_of("celerylab.deploy.send_welcome") == "priority"
    assert queue_of("celerylab.deploy.build_report") == "heavy"
    assert queue_of("celerylab.deploy.add") == "default"
    assert queue_of("celerylab.deploy.heartbeat") == "default"


def test_beat_schedule_names_a_registered_task():
    entry = app.conf.beat_schedule["heartbeat"]
    assert entry["task"] in app.tasks


def test_production_settings():
    assert app.conf.task_acks_late is True
    assert app.conf.worker_prefetch_multiplier == 1
    assert app.conf.accept_content == ["json"]


@pytest.mark.live
def test_broker_comes_from_redis_url_outside_a_stack():
    code = "from celerylab.deploy.app import app; print(app.conf.broker_url)"
    env = {"PATH": "/usr/bin:/bin", "REDIS_URL": "redis://redis:6379/0"}
    output = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert output.stdout.strip() == "redis://redis:6379/0"
