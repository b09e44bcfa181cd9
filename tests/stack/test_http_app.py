"""An HTTP producer (FastAPI under uvicorn) on the stack: its requests enqueue tasks the stack's worker runs; the http_apps
 a stack starts with, and a failing one, after which nothing the stack started is left."""
from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import psutil
import pytest

from celerylab.polling import until
from celerylab.stack import Stack, StackError, StackSpec
from celerylab.stack.nodes import ServiceNode
from celerylab.stack.ports import is_listening

pytestmark = pytest.mark.live
HERE = Path(__file__).parent


def post(url: str) -> dict:
    request = urllib.request.Request(url, data=b"", method="POST")
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


def test_fastapi_producer_enqueues_tasks_the_worker_runs():
    with Stack.start("celerylab.stack.smoke", pythonpath=(HERE,), timeline=False) as stack:
        node = stack.add_http_app("producer", "stack_producer:api")
        assert isinstance(node, ServiceNode) and node.alive
        assert stack.service_url("producer") == node.url and node.url.startswith("http://127.0.0.1:")
        assert stack.process_env()["CELERYLAB_PRODUCER_URL"] == node.url
        task_id = post(f"{node.url}/add?x=2&y=3")["task_id"]
        assert stack.app.AsyncResult(task_id).get(timeout=10) == 5
        task_id = post(f"{node.url}/whoami")["task_id"]
        answer = stack.app.AsyncResult(task_id).get(timeout=10)
        assert answer == {"pid": stack.workers[0].pid, "namespace": stack.namespace}
        assert "POST /add" in node.logs


SPEC = StackSpec("celerylab.stack.smoke", pythonpath=(HERE,), timeline=False, http_apps={"producer": "stack_producer:api"})


def test_http_apps_start_with_the_stack_and_give_later_processes_their_url():
    with Stack.start(SPEC) as stack:
        node = stack.services["producer"]
        assert isinstance(node, ServiceNode) and node.alive and node in stack.processes()
        assert stack.service_url("producer") == node.url and node.url.startswith("http://127.0.0.1:")
        assert stack.process_env()["CELERYLAB_PRODUCER_URL"] == node.url
        task_id = post(f"{node.url}/add?x=2&y=3")["task_id"]
        assert stack.app.AsyncResult(task_id).get(timeout=10) == 5


def test_a_failing_http_app_leaves_no_process_and_no_port(monkeypatch):
    """The producer is up and the broker listens when the other app fails: the stack stops both."""
    started: dict = {}
    close = Stack.close

    def recording_close(self) -> None:
        if not started:
            started["services"] = sorted(self.services)
            started["pids"] = [pid for node in self.processes() for pid in
                               [node.pid, *(c.pid for c in psutil.Process(node.pid).children(recursive=True))]]
            started["ports"] = [urlparse(url).port for url in
                                [self.broker.url, *(node.url for node in self.services.values())]]
        close(self)

    monkeypatch.setattr(Stack, "close", recording_close)
    with pytest.raises(StackError) as raised:
        Stack.start(SPEC, http_apps={"producer": "stack_producer:api", "broken": "stack_producer:missing"})
    assert "broken" in str(raised.value)
    assert started, "the failed start never closed the stack"
    assert started["services"] == ["producer"] and len(started["pids"]) >= 2  # the worker and the producer, at least
    assert until(lambda: not [pid for pid in started["pids"] if alive(pid)], 10), "processes survived the failed start"
    assert [port for port in started["ports"] if port and is_listening("127.0.0.1", port)] == []


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
