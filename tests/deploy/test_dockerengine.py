"""The private engine's helpers that need no Docker: the ports the compose test publishes."""
from __future__ import annotations

import socket

import dockerengine
import pytest
from dockerengine import ephemeral_range, publishable_port


def test_a_publishable_port_is_free_and_outside_the_range_the_kernel_hands_out():
    for _ in range(20):
        port = publishable_port()
        assert port not in ephemeral_range()
        with socket.socket() as s:
            s.bind(("127.0.0.1", port))  # free: Docker can bind it


def test_a_port_someone_listens_on_or_already_given_is_never_chosen(monkeypatch):
    with socket.socket() as listener, socket.socket() as other:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        other.bind(("127.0.0.1", 0))
        busy, given = listener.getsockname()[1], other.getsockname()[1]
        other.close()
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            free = probe.getsockname()[1]
        monkeypatch.setattr(dockerengine, "PUBLISHED_PORTS", [busy, given, free])
        monkeypatch.setattr(dockerengine, "ephemeral_range", lambda: range(0))
        for _ in range(10):
            assert publishable_port(taken={given}) == free


def test_no_free_port_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(dockerengine, "PUBLISHED_PORTS", range(40000, 40010))
    monkeypatch.setattr(dockerengine, "ephemeral_range", lambda: range(30000, 50000))
    with pytest.raises(RuntimeError, match="no free port"):
        publishable_port()


def test_the_kernel_range_is_read_and_a_missing_file_falls_back_to_linux_default(tmp_path, monkeypatch):
    (tmp_path / "range").write_text("40000\t50000\n")
    monkeypatch.setattr(dockerengine, "EPHEMERAL_RANGE", tmp_path / "range")
    assert ephemeral_range() == range(40000, 50001)
    monkeypatch.setattr(dockerengine, "EPHEMERAL_RANGE", tmp_path / "missing")
    assert ephemeral_range() == range(32768, 61000)


def test_a_failed_compose_up_says_why_on_its_first_line_without_the_progress_lines():
    import subprocess

    progress = "".join(f" Container p-{name}-1  {state}\n" for name in ("redis", "flower", "beat") * 30
                       for state in ("Creating", "Created", "Starting", "Started", "Waiting", "Healthy"))
    stderr = (" Network p_default  Creating\n redis IPv4 forwarding is disabled. Networking will not work.\n" + progress
              + "Error response from daemon: Bind for 127.0.0.1:37087 failed: port is already allocated\n")
    result = subprocess.CompletedProcess(["docker"], 1, stdout=b"", stderr=stderr.encode())
    message = dockerengine.failure_message(("compose", "--project-directory", "/x", "-f", "up"), result)
    first, *rest = message.splitlines()
    assert first.endswith("exited 1: Error response from daemon: Bind for 127.0.0.1:37087 failed: port is already allocated")
    assert "IPv4 forwarding is disabled" in message
    assert not any(" Container p-" in line for line in rest)
    assert len(rest) <= dockerengine.FAILURE_LINES
