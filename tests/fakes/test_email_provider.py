"""The fake e-mail provider: faults, idempotency keys, permanent errors, as a real process."""
from __future__ import annotations

import pytest

from celerylab.fakes.clients import InvalidAddress, ProviderUnavailable, send_email
from celerylab.fakes.control import FakeControl
from celerylab.stack.process import ManagedProcess

pytestmark = pytest.mark.live


@pytest.fixture
def provider(monkeypatch):
    import sys

    process = ManagedProcess("email", [sys.executable, "-m", "celerylab.fakes.email_provider"],
                             ready_pattern=r"listening on").start()
    url = "http://" + process.wait_for_log(r"listening on ([\d.]+:\d+)", 1, since=0).group(1)
    monkeypatch.setenv("CELERYLAB_EMAIL_URL", url)
    yield FakeControl(url)
    process.stop(timeout=1)


def test_slow_ack_records_then_times_out(provider):
    provider.fault("slow_ack", times=1, delay=0.6)
    with pytest.raises(TimeoutError):
        send_email("a@example.com", "hi")
    assert [m["to"] for m in provider.outbox()] == ["a@example.com"]
    send_email("a@example.com", "hi")
    assert provider.stats() == {"requests": 2, "deliveries": 2}


def test_idempotency_key_delivers_once(provider):
    first = send_email("a@example.com", "hi", idempotency_key="k1")
    again = send_email("a@example.com", "hi", idempotency_key="k1")
    assert first == again and len(provider.outbox()) == 1


def test_slow_reject_and_unavailable_record_nothing(provider):
    provider.fault("slow_reject", times=1, delay=0.6)
    with pytest.raises(TimeoutError):
        send_email("a@example.com", "hi")
    provider.fault("unavailable", times=1)
    with pytest.raises(ProviderUnavailable):
        send_email("a@example.com", "hi")
    assert provider.outbox() == []


def test_refused_address_is_a_permanent_error(provider):
    with pytest.raises(InvalidAddress):
        send_email("not-an-address", "hi")
    assert isinstance(InvalidAddress("x"), ValueError)


def test_control_routes_belong_to_the_first_claimant(provider):
    import urllib.error
    import urllib.request

    from celerylab.fakes.control import AlreadyClaimed, claim

    provider.fault("unavailable", times=0)  # unclaimed (started by hand): control is open
    claim(provider.url, "owner-token")
    with pytest.raises(AlreadyClaimed):
        claim(provider.url, "someone-else")
    request = urllib.request.Request(provider.url + "/reset", data=b"{}", method="POST",
                                     headers={"X-Control-Token": "someone-else"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=5)
    assert refused.value.code == 403
    send_email("a@example.com", "hi")  # the service route stays open
    assert [m["to"] for m in provider.outbox()] == ["a@example.com"]  # this process holds the token
