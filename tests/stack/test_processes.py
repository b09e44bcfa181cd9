"""Worker kill and restart, Beat firing, Flower answering."""
from __future__ import annotations

import signal
import urllib.request

import pytest

from celerylab.stack import Stack

pytestmark = pytest.mark.live


def test_worker_kill_and_restart():
    with Stack.start("celerylab.stack.smoke", timeline=False) as stack:
        worker = stack.workers[0]
        first_pid = stack.app.send_task("celerylab.smoke.whoami").get(timeout=10)["pid"]
        assert first_pid == worker.pid
        worker.kill(signal.SIGKILL)
        worker._popen.wait(5)
        assert not worker.alive
        worker.restart()
        assert worker.alive and worker.pid != first_pid
        assert stack.app.send_task("celerylab.smoke.whoami").get(timeout=10)["pid"] == worker.pid
        assert worker.starts == 2


def test_beat_starts_and_fires():
    with Stack.start("celerylab.stack.smoke", beats=1, env={"SMOKE_TICK": "0.3"}) as stack:
        stack.beats[0].wait_for_log(r"Sending due task smoke-tick", timeout=10)
        stack.timeline.wait_for("task-succeeded", name="celerylab.smoke.tick", count=2, timeout=10)


def test_flower_answers_with_the_workers():
    with Stack.start("celerylab.stack.smoke", flower=True, timeline=False) as stack:
        stack.app.send_task("celerylab.smoke.ping").get(timeout=10)
        with urllib.request.urlopen(f"{stack.flower_url}/healthcheck", timeout=5) as response:
            assert response.read().strip() == b"OK"
        with urllib.request.urlopen(f"{stack.flower_url}/metrics", timeout=5) as response:
            assert b"flower_" in response.read()


def test_beat_with_a_selectable_scheduler_redbeat():
    with Stack.start("celerylab.stack.smoke", beats=1, beat_scheduler="redbeat.RedBeatScheduler",
                     env={"SMOKE_TICK": "0.3"}) as stack:
        stack.beats[0].wait_for_log(r"Sending due task smoke-tick", timeout=15)
        stack.timeline.wait_for("task-succeeded", name="celerylab.smoke.tick", count=2, timeout=15)
        assert "RedBeatScheduler" in stack.beats[0].logs
