"""The fake webhook: 429 with Retry-After for the first calls, then 200."""
from __future__ import annotations

import sys

import pytest

from celerylab.fakes.clients import RateLimited, call_webhook
from celerylab.fakes.control import FakeControl
from celerylab.stack.process import ManagedProcess

pytestmark = pytest.mark.live  # starts processes


def test_rate_limit_then_success(monkeypatch):
    process = ManagedProcess("webhook", [sys.executable, "-m", "celerylab.fakes.webhook"],
                             ready_pattern=r"listening on").start()
    try:
        url = "http://" + process.wait_for_log(r"listening on ([\d.]+:\d+)", 1, since=0).group(1)
        monkeypatch.setenv("CELERYLAB_WEBHOOK_URL", url)
        control = FakeControl(url)
        control.limit(times=1, retry_after=3)
        with pytest.raises(RateLimited) as limited:
            call_webhook({"x": 1})
        assert limited.value.retry_after == 3
        assert call_webhook({"x": 1}) == {"status": 200}
        assert [c["status"] for c in control.calls()] == [429, 200]
    finally:
        process.stop(timeout=1)
