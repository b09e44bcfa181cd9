"""An HTTP producer (FastAPI under uvicorn) on the stack: its requests enqueue tasks the stack's worker runs."""
from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

from celerylab.stack import Stack
from celerylab.stack.nodes import ServiceNode

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
