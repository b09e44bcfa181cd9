"""The lesson's private RabbitMQ node: its own config and ports, reachable, stopped by its process group with its folder gone."""
from __future__ import annotations

import os

import pytest
from kombu import Connection

from celerylab.lessons.l08_rabbitmq.check_node import CheckNode
from celerylab.stack import rabbitmq_node
from celerylab.stack.rabbitmq_node import RabbitNode


def test_missing_names_the_absent_programs(monkeypatch, tmp_path):
    monkeypatch.setattr(rabbitmq_node, "LIB_BIN", tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert rabbitmq_node.missing() == "rabbitmq-server, rabbitmqctl"


def test_the_config_sets_the_short_timeout_the_tick_and_a_loopback_listener():
    node = RabbitNode(consumer_timeout_ms=1234, tick_ms=250)
    try:
        node.port = 40001
        node._write_config()
        conf = (node.folder / "rabbitmq.conf").read_text().splitlines()
        assert conf[:2] == ["listeners.tcp.1 = 127.0.0.1:40001", "consumer_timeout = 1234"]
        assert "channel_tick_interval, 250" in (node.folder / "advanced.config").read_text()
        assert node.env()["RABBITMQ_CONF_ENV_FILE"].startswith(str(node.folder))  # not /etc/rabbitmq's
    finally:
        node.stop()
    assert not node.folder.exists()


@pytest.mark.live
@pytest.mark.needs("rabbitmq-server")
def test_a_node_runs_on_its_own_port_and_stops_by_its_process_group():
    node = RabbitNode(consumer_timeout_ms=2000).start()
    try:
        pid, folder = node.process.pid, node.folder
        assert node.port != 5672 and node.name == f"celerylab-{node.port}@localhost"
        with Connection(node.url, connect_timeout=5) as connection:
            connection.ensure_connection(max_retries=1)
            assert connection.connection.server_properties["version"]
        assert node.consumer_timeout() == 2000
    finally:
        node.stop()
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)
    assert not folder.exists()


@pytest.mark.live
@pytest.mark.needs("rabbitmq-server")
def test_the_checks_rabbitmqctl_answers_whatever_folder_its_caller_is_in(monkeypatch, tmp_path):
    """The checks' CLI runs in the node's folder: a caller's folder it cannot list (a grading job's) or that is gone does not
    put the Erlang VM's own error report on stdout in place of, or before, the answer."""
    node = CheckNode().start()
    try:
        gone = tmp_path / "gone"
        gone.mkdir()
        monkeypatch.chdir(gone)
        gone.rmdir()
        with Connection(node.url, connect_timeout=5) as connection:
            connection.default_channel.queue_declare("l08-cwd")
        assert node.ctl("list_queues", "-q", "--no-table-headers", "name", "messages") == "l08-cwd\t0\n"
    finally:
        node.stop()
