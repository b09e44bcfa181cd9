"""The workers' health check passes only when the node answers ping and its queue's canary is consumed in time."""
from __future__ import annotations

import pytest
from celery.exceptions import TimeoutError as ResultTimeout

from celerylab.deploy import canary


class Result:
    def __init__(self, consumed: bool):
        self.consumed = consumed

    def get(self, timeout: float):
        if not self.consumed:
            raise ResultTimeout("the canary was not consumed")
        return "canary"


class App:
    """An app whose ping and queue behave as told; records what the check sent."""

    def __init__(self, pong: bool, consumed: bool):
        self.sent = []
        self.control = self
        self.pong, self.consumed = pong, consumed

    def ping(self, destination, timeout):
        return [{destination[0]: {"ok": "pong"}}] if self.pong else []

    def send_task(self, name, queue, expires):
        self.sent.append((name, queue, expires))
        return Result(self.consumed)


@pytest.mark.parametrize(("pong", "consumed", "code"), [(True, True, 0), (True, False, 1), (False, True, 1)])
def test_healthy_only_with_ping_and_canary(monkeypatch, pong, consumed, code):
    app = App(pong, consumed)
    monkeypatch.setattr("celerylab.deploy.app.app", app)
    assert canary.main(["--queue", "heavy", "--node", "heavy@box", "--timeout", "4"]) == code
    assert app.sent == [("celerylab.deploy.canary", "heavy", 4.0)]  # through the worker's own queue, expiring


def test_the_canary_task_is_registered_and_answers():
    from celerylab.deploy.app import app

    assert app.tasks["celerylab.deploy.canary"]() == "canary"
