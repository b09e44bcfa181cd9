"""Private RabbitMQ nodes of other releases, run from their Debian roots under bwrap: they start on their own port,
report their release, and stop leaving no process and no folder."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from kombu import Connection

from celerylab.stack import rabbitmq_node, rabbitmq_roots
from celerylab.stack.errors import StackError
from celerylab.stack.rabbitmq_node import RabbitNode


def holding(folder: Path) -> list[int]:
    """The pids of the processes whose environment names `folder` (the node's HOME and data folders)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if str(folder).encode() in (entry / "environ").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def test_a_release_without_its_root_refuses_to_start_and_says_why(monkeypatch, tmp_path):
    monkeypatch.setenv(rabbitmq_roots.CACHE_ENV, str(tmp_path))
    assert str(tmp_path / "4.0") in rabbitmq_node.missing("4.0")
    node = RabbitNode(release="4.0")
    with pytest.raises(StackError, match="rabbitmq_roots 4.0"):
        node.start()
    assert not node.folder.exists()  # start() stopped what it began: the folder is gone


def test_an_unknown_release_is_refused_before_anything_starts():
    with pytest.raises(ValueError, match="3.10, 4.0, 4.3"):
        RabbitNode(release="2.8")


def test_the_command_runs_the_release_s_script_inside_its_root_read_only(monkeypatch, tmp_path):
    monkeypatch.setenv(rabbitmq_roots.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(rabbitmq_node, "missing", lambda release=None: "")
    node = RabbitNode(release="4.3")
    try:
        argv = node.command("rabbitmqctl")
        assert argv[argv.index("--ro-bind") + 1:][:2] == [str(tmp_path / "4.3"), "/"]
        assert argv[argv.index("--bind") + 1:][:2] == [str(node.folder), str(node.folder)]
        assert "--share-net" in argv and "--unshare-pid" in argv
        assert argv[-1] == "/usr/lib/rabbitmq/bin/rabbitmqctl"
    finally:
        node.stop()


def test_the_default_node_is_the_system_s_and_shares_the_machine_s_epmd():
    node = RabbitNode()
    try:
        assert node.release is None and node.root is None
        assert "ERL_EPMD_PORT" not in node.env() or node.env()["ERL_EPMD_PORT"] == os.environ.get("ERL_EPMD_PORT")
    finally:
        node.stop()


def test_a_release_node_and_its_cli_use_an_epmd_of_their_own():
    # started inside the node's pid namespace, that epmd dies with it: a node stopping takes no other node's name away
    node = RabbitNode(release="4.0")
    try:
        node.epmd_port = 45001
        assert node.env()["ERL_EPMD_PORT"] == "45001"
    finally:
        node.stop()


@pytest.mark.live
@pytest.mark.parametrize("release", sorted(rabbitmq_roots.RELEASES))
def test_a_release_node_starts_reports_its_version_and_stops_leaving_no_process(release):
    why = rabbitmq_node.missing(release)
    if why:
        pytest.skip(why)
    node = RabbitNode(consumer_timeout_ms=2000, release=release)
    try:
        node.start()
        pid, folder = node.process.pid, node.folder
        assert node.port != 5672 and node.name == f"celerylab-{node.port}@localhost"
        with Connection(node.url, connect_timeout=5) as connection:
            connection.ensure_connection(max_retries=1)
            assert connection.connection.server_properties["version"].startswith(f"{release}.")
        assert node.version().startswith(f"{release}.")
        assert node.consumer_timeout() == 2000
        assert holding(folder)
    finally:
        node.stop()
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)
    assert holding(folder) == []
    assert not folder.exists()
