"""The fake webhook: 429 with Retry-After for the first calls, then 200."""
from __future__ import annotations

import pytest

from celerylab.fakes.clients import RateLimited, call_webhook
from celerylab.fakes.control import FakeControl

pytestmark = pytest.mark.live


def test_rate_limit_then_success(start_fake, monkeypatch):
    url = start_fake("celerylab.fakes.webhook")
    monkeypatch.setenv("CELERYLAB_WEBHOOK_URL", url)
    control = FakeControl(url)
    control.limit(times=1, retry_after=3)
    with pytest.raises(RateLimited) as limited:
        call_webhook({"x": 1})
    assert limited.value.retry_after == 3
    assert call_webhook({"x": 1}) == {"status": 200}
    assert [c["status"] for c in control.calls()] == [429, 200]
