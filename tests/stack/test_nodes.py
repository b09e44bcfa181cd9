"""Typed nodes: kill waits for the end, terminate is graceful, restart and wait_ready, log offsets, Flower and service URLs."""
from __future__ import annotations

import signal

import pytest

from celerylab.fakes.control import FakeControl
from celerylab.stack import Stack, StackError
from celerylab.stack.nodes import BeatNode, FlowerNode, ServiceNode
from celerylab.stack.worker_node import WorkerNode

pytestmark = pytest.mark.live
SMOKE = "celerylab.stack.smoke"


def test_kill_terminate_restart_and_log_offsets():
    with Stack.start(SMOKE, timeline=False) as stack:
        worker = stack.workers[0]
        assert isinstance(worker, WorkerNode) and worker.name == "worker1"
        offset = worker.log_offset()
        stack.app.send_task("celerylab.smoke.add", (1, 2)).get(timeout=10)
        worker.wait_for_log(r"succeeded", timeout=5, since=offset)
        with pytest.raises(StackError):
            worker.wait_for_log(r"succeeded", timeout=0.3, since=worker.log_offset())
        assert worker.logs() == worker.logs and "ready." in worker.logs
        first = worker.pid
        assert worker.kill() == -signal.SIGKILL and not worker.alive
        assert worker.restart() is worker and worker.alive and worker.pid != first
        assert worker.wait_ready(timeout=1) is worker
        assert stack.app.send_task("celerylab.smoke.whoami").get(timeout=10)["pid"] == worker.pid
        assert worker.terminate(timeout=10) == 0 and not worker.alive
        worker.restart()
        assert stack.app.send_task("celerylab.smoke.add", (2, 2)).get(timeout=10) == 4


def control_status(url: str, payload: dict | None = None) -> int:
    """The HTTP status a caller without the control token (a task, say) gets."""
    import json
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, data=json.dumps(payload or {}).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_beat_flower_and_service_nodes():
    with Stack.start(SMOKE, beats=1, flower=True, timeline=False,
                     services={"email": "celerylab.fakes.email_provider"}) as stack:
        assert isinstance(stack.beats[0], BeatNode) and stack.beats[0].schedule_path.endswith("beat1-schedule")
        assert isinstance(stack.flower, FlowerNode) and stack.flower.url == stack.flower_url
        email = stack.services["email"]
        assert isinstance(email, ServiceNode) and email.url == stack.service_url("email")
        assert stack.process_env()["CELERYLAB_EMAIL_URL"] == email.url
        assert len(stack.processes()) == 5  # broker, worker, beat, flower, e-mail
        # the fake's control routes answer only the process that owns the stack; its service route, anyone
        assert control_status(email.url + "/reset") == 403
        assert control_status(email.url + "/faults", {"mode": "unavailable"}) == 403
        assert control_status(email.url + "/send", {"to": "a@example.com", "subject": "hi"}) == 200
        assert [m["to"] for m in FakeControl(email.url).outbox()] == ["a@example.com"]


def test_an_http_node_is_ready_when_its_path_answers_and_fails_at_once_when_it_exits(tmp_path):
    import sys
    import time

    from celerylab.stack.nodes import HttpNode
    from celerylab.stack.ports import free_port

    (tmp_path / "ready").write_text("ok")
    port = free_port()
    server = HttpNode("web", [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"], cwd=tmp_path,
                      url=f"http://127.0.0.1:{port}", ready_path="/ready", ready_timeout=20)
    try:
        assert server.start() is server and server.alive
        assert server.ready_path == "/ready" and FlowerNode.ready_path == "/healthcheck"
    finally:
        server.stop(timeout=1)
    crash = HttpNode("crash", [sys.executable, "-c", "print('bind: address already in use'); raise SystemExit(3)"],
                     url=f"http://127.0.0.1:{free_port()}", ready_timeout=20)
    started = time.monotonic()
    with pytest.raises(StackError) as raised:
        crash.start()
    assert time.monotonic() - started < 10  # not the 20 s of ready_timeout: its exit ended the wait
    assert raised.value.key == "stack.died" and "address already in use" in raised.value.log_tail


def test_on_free_port_tries_another_port_only_when_the_address_was_in_use():
    from celerylab.stack.nodes import on_free_port

    ports = []

    def start(port: int) -> int:
        ports.append(port)
        if len(ports) < 3:
            raise StackError("stack.not_ready", "OSError: [Errno 98] Address already in use", name="x",
                             pattern="p", timeout=1)
        return port

    assert on_free_port(start) == ports[-1] and len(ports) == 3
    ports.clear()
    with pytest.raises(StackError, match="in use"):
        on_free_port(start, tries=2)  # every try taken: the last error
    assert len(ports) == 2

    def broken(port: int) -> int:
        ports.append(port)
        raise StackError("stack.not_ready", "ModuleNotFoundError: no module named 'web'", name="x", pattern="p",
                         timeout=1)

    ports.clear()
    with pytest.raises(StackError, match="ModuleNotFoundError"):
        on_free_port(broken)
    assert len(ports) == 1  # another port cannot help
