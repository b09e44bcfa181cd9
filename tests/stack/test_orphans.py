"""No orphans: closing a stack, or SIGKILLing the process that owns it, leaves no process behind."""
from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from celerylab.polling import until
from celerylab.stack import Stack, WorkerSpec

pytestmark = pytest.mark.live

OWNER = """
import json, sys, time, psutil
from celerylab.stack import Stack, WorkerSpec
stack = Stack.start("celerylab.stack.smoke", workers=[WorkerSpec(pool="prefork", concurrency=2)],
                    beats=1, flower=True, broker_kind=sys.argv[1], pythonpath=(sys.argv[2],))
stack.add_http_app("producer", "stack_producer:api")
stack.app.send_task("celerylab.smoke.ping").get(timeout=10)
pids = []
for process in stack.processes():
    pids.append(process.pid)
    pids += [child.pid for child in psutil.Process(process.pid).children(recursive=True)]
print(json.dumps({"pids": pids, "workdir": str(stack.workdir)}), flush=True)
time.sleep(120)
"""


def wait_all_gone(pids: list[int], timeout: float = 10.0) -> list[int]:
    deadline = time.monotonic() + timeout
    alive = list(pids)
    while alive and time.monotonic() < deadline:
        gone, still = psutil.wait_procs([psutil.Process(p) for p in alive if psutil.pid_exists(p)], timeout=0.2)
        alive = [p.pid for p in still if p.status() != psutil.STATUS_ZOMBIE]
    return alive


@pytest.mark.needs("redis-server", "packaged-redis")
def test_sigkill_of_the_owner_leaves_no_process(tmp_path):
    for kind in ("embedded", "redis-server", "packaged"):
        owner = subprocess.Popen([sys.executable, "-c", OWNER, kind, str(Path(__file__).parent)],
                                 stdout=subprocess.PIPE, text=True)
        try:
            started = json.loads(owner.stdout.readline())
            pids = started["pids"]
            assert len(pids) >= 7  # broker, worker + 2 pool children, beat, flower, uvicorn
            assert all(psutil.pid_exists(p) for p in pids)
        finally:
            os.kill(owner.pid, signal.SIGKILL)
            owner.wait()
        assert wait_all_gone(pids) == [], f"{kind}: processes survived their owner"
        until(lambda: not os.path.exists(started["workdir"]), 5)
        assert not os.path.exists(started["workdir"]), f"{kind}: the stack's folder survived its owner"


def test_close_stops_every_process():
    stack = Stack.start("celerylab.stack.smoke", workers=[WorkerSpec(pool="prefork", concurrency=2)],
                        beats=1, timeline=False, broker_kind="embedded")
    pids = []
    for process in stack.processes():
        pids.append(process.pid)
        pids += [c.pid for c in psutil.Process(process.pid).children(recursive=True)]
    stack.close()
    assert wait_all_gone(pids, timeout=5) == []
    assert not stack.workdir.exists()


def test_interrupted_start_cleans_up(monkeypatch):
    from celerylab.stack import stack as stack_module

    started: list[int] = []
    original = stack_module.Stack.add_beat

    def interrupted_beat(self, *args, **kwargs):
        started.extend(p.pid for p in self.processes())
        raise KeyboardInterrupt

    monkeypatch.setattr(stack_module.Stack, "add_beat", interrupted_beat)
    try:
        Stack.start("celerylab.stack.smoke", beats=1, timeline=False, broker_kind="embedded")
    except KeyboardInterrupt:
        pass
    monkeypatch.setattr(stack_module.Stack, "add_beat", original)
    assert started and wait_all_gone(started, timeout=5) == []


def reapers_of(owner_pid: int) -> list[int]:
    """The owner's living reaper children (a killed one is a zombie until the owner reaps it: not counted)."""
    found = []
    for child in psutil.Process(owner_pid).children():
        try:
            if any(part.endswith("reaper.py") for part in child.cmdline()):
                found.append(child.pid)
        except (psutil.ZombieProcess, psutil.NoSuchProcess):
            continue
    return found


def test_a_killed_reaper_is_replaced_and_still_cleans_up_after_its_owner(tmp_path):
    owner = subprocess.Popen([sys.executable, "-c", OWNER, "embedded", str(Path(__file__).parent)],
                             stdout=subprocess.PIPE, text=True)
    started = {"pids": []}
    try:
        started = json.loads(owner.stdout.readline())
        [first] = reapers_of(owner.pid)
        os.kill(first, signal.SIGKILL)  # the OOM killer's choice, say
        assert until(lambda: [p for p in reapers_of(owner.pid) if p != first], 10), "no reaper replaced the killed one"
    finally:
        os.kill(owner.pid, signal.SIGKILL)
        owner.wait()
        survivors = wait_all_gone(started["pids"])
        for pid in survivors:  # a failing run must not leave the stack behind either
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    assert survivors == [], "processes survived their owner after the reaper was replaced"
