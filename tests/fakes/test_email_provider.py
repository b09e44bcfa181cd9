"""The fake e-mail provider: faults, idempotency keys, permanent errors, as a real process."""
from __future__ import annotations

import pytest

from celerylab.fakes.clients import InvalidAddress, ProviderUnavailable, send_email
from celerylab.fakes.control import FakeControl

pytestmark = pytest.mark.live


@pytest.fixture
def provider(start_fake, monkeypatch):
    url = start_fake("celerylab.fakes.email_provider")
    monkeypatch.setenv("CELERYLAB_EMAIL_URL", url)
    return FakeControl(url)


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


def test_garbled_reply_is_unreadable_and_records_nothing(provider):
    import json

    provider.fault("garbled", times=2)
    for _ in range(2):
        with pytest.raises(json.JSONDecodeError):
            send_email("a@example.com", "hi")
    assert provider.outbox() == []
    send_email("a@example.com", "hi")
    assert provider.stats() == {"requests": 3, "deliveries": 1}


def test_reset_drops_the_connection_without_an_answer_and_records_nothing(provider):
    provider.fault("reset", times=2)
    for _ in range(2):
        with pytest.raises(ConnectionResetError):
            send_email("a@example.com", "hi", idempotency_key="k1")
    assert provider.outbox() == []
    send_email("a@example.com", "hi", idempotency_key="k1")
    assert provider.stats() == {"requests": 3, "deliveries": 1}


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


def provider_pid(url: str) -> int:
    """The pid listening on the fake's port (as a task would find it)."""
    from urllib.parse import urlparse

    import psutil

    port = urlparse(url).port
    return next(c.pid for c in psutil.net_connections("tcp") if c.laddr and c.laddr.port == port
                and c.status == psutil.CONN_LISTEN)


def test_a_fake_killed_and_replaced_is_not_trusted(provider):
    """A task that kills the fake and serves made-up stats on its port: the owner's reads refuse the impostor."""
    import json
    import os
    import signal
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer
    from urllib.parse import urlparse

    from celerylab.fakes.control import NotTheFake, claim

    claim(provider.url, "owner-token")
    assert provider.stats() == {"requests": 0, "deliveries": 0}
    pid = provider_pid(provider.url)

    class Impostor(BaseHTTPRequestHandler):
        def do_GET(self):
            data = json.dumps({"requests": 1, "deliveries": 1}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("X-Control-Signature", self.headers.get("X-Control-Auth", ""))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    os.kill(pid, signal.SIGKILL)
    port = urlparse(provider.url).port
    for _ in range(100):
        try:
            server = HTTPServer(("127.0.0.1", port), Impostor)
            break
        except OSError:
            import time

            time.sleep(0.05)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with pytest.raises(NotTheFake):
            provider.stats()
    finally:
        server.shutdown()
        server.server_close()


def test_the_fake_is_not_dumpable():
    """Its memory (where the control token lives) is not readable by other processes of its own user: the
    kernel gives a non-dumpable process's /proc files to root."""
    import os
    import sys

    if os.geteuid() != 0:
        pytest.skip("needs root, to start the fake as another user (run the suite as root: sudo)")
    from pathlib import Path

    private = [str(folder) for folder in Path(os.path.realpath(sys.executable)).parents
               if not os.stat(folder).st_mode & 0o001]
    if private:  # a grading job sees the interpreter through its own mount namespace (test_private_install.py)
        pytest.skip(f"another user cannot reach this interpreter outside a grading job: {private[0]} is private "
                    "(run the suite from a checkout in folders others can enter, e.g. under /srv, or chmod o+x them)")
    uid = 3_999_999

    def other_user():
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)

    import subprocess

    import psutil

    popen = subprocess.Popen([sys.executable, "-m", "celerylab.fakes.email_provider"], stdout=subprocess.PIPE,
                             text=True, preexec_fn=other_user, cwd="/")
    try:
        assert "listening on" in popen.stdout.readline()
        assert psutil.Process(popen.pid).uids().real == uid      # it runs as that user...
        assert os.stat(f"/proc/{popen.pid}/mem").st_uid == 0     # ...and its memory is not that user's to read
    finally:
        popen.kill()
        popen.wait()



@pytest.fixture
def port_with_a_stale_token():
    """A free port for which this process still records the token of a fake it claimed there before."""
    from celerylab.fakes import control
    from celerylab.stack.ports import free_port

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    control._TOKENS[url] = "an-earlier-fakes-token"
    yield port
    control._TOKENS.pop(url, None)


def test_a_token_left_for_an_earlier_fake_on_the_same_port_does_not_sign_a_new_one(port_with_a_stale_token,
                                                                                       start_fake):
    url = start_fake("celerylab.fakes.email_provider", port_with_a_stale_token)
    assert url == f"http://127.0.0.1:{port_with_a_stale_token}"
    assert FakeControl(url).outbox() == []
