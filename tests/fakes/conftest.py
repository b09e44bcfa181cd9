"""A fake started by hand for its own tests, with this process's record of claimed fakes to itself."""
from __future__ import annotations

import sys

import pytest

from celerylab.fakes import control
from celerylab.stack.nodes import LISTENING
from celerylab.stack.process import ManagedProcess


@pytest.fixture
def start_fake(monkeypatch):
    """start_fake(module, port=0): the fake's URL, the fake running until the test ends.

    The test gets an empty record of claimed fakes, put back afterwards: a token recorded here for an earlier fake on
    the same port (a stack's, or a test's `claim`) would sign this unclaimed fake's requests and read its replies as
    NotTheFake."""
    monkeypatch.setattr(control, "_TOKENS", {})
    started = []

    def start(module: str, port: int = 0) -> str:
        process = ManagedProcess(module.rsplit(".", 1)[1], [sys.executable, "-m", module, "--port", str(port)],
                                 ready_pattern=LISTENING).start()
        started.append(process)
        return "http://" + process.wait_for_log(LISTENING, 1, since=0).group(1)

    yield start
    for process in started:
        process.stop(timeout=1)
