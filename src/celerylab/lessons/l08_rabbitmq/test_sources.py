"""Which RabbitMQ lesson 08's page uses, in order: a URL given, the system's rabbitmq-server, a Docker or Podman
container from a local image, else the recorded run (commands faked on an otherwise empty PATH); and, live, the URL
branch on the machine's RabbitMQ."""
from __future__ import annotations

import contextlib
import io
import os
import stat
from pathlib import Path

import pytest
from kombu import Connection

from celerylab import i18n, machine_needs
from celerylab.lessons.l08_rabbitmq import container, helpers, page, sources
from celerylab.stack import rabbitmq_node
from celerylab.stack.broker import URL_ENV as LAB_BROKER_ENV
from celerylab.stack.errors import StackError
from celerylab.stack.rabbitmq_node import RabbitNode

AMQP_URL = "amqp://learner:secret@rabbit.example:5672/lab"


@pytest.fixture
def machine(monkeypatch, tmp_path):
    """A machine with nothing: no RabbitMQ programs, an empty PATH (no docker, no podman), no URL in the environment,
    a node that would start fails the test; `machine.program(name, script)` puts a fake command on the PATH, and
    `machine.server()` a fake rabbitmq-server whose node "starts" without a process."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setattr(rabbitmq_node, "LIB_BIN", tmp_path / "lib")
    monkeypatch.setenv("PATH", str(bin_dir))
    for name in (sources.URL_ENV, LAB_BROKER_ENV, container.IMAGE_ENV):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(RabbitNode, "start", lambda self: pytest.fail("a system node was started"))
    monkeypatch.setattr(sources.UrlBroker, "unreachable", lambda self: pytest.fail("a URL was tried"))
    monkeypatch.setenv("CELERYLAB_LANG", "en")
    monkeypatch.setattr(i18n, "_current", "en")

    class Machine:
        calls = tmp_path / "calls.log"

        @staticmethod
        def program(name: str, script: str) -> Path:
            path = bin_dir / name
            path.write_text(f"#!/bin/sh\necho \"$0 $*\" >> {tmp_path / 'calls.log'}\n{script}\n")
            path.chmod(path.stat().st_mode | stat.S_IXUSR)
            return path

        @staticmethod
        def server() -> None:
            for name in ("rabbitmq-server", "rabbitmqctl"):
                Machine.program(name, "exit 0")
            monkeypatch.setattr(RabbitNode, "start", lambda self: self)

        @staticmethod
        def reachable() -> None:
            monkeypatch.setattr(sources.UrlBroker, "unreachable", lambda self: "")

        @staticmethod
        def called() -> str:
            return Machine.calls.read_text() if Machine.calls.exists() else ""

    return Machine


# A docker that answers, holds rabbitmq:4.1, runs a "node" that prints RabbitMQ's ready line, and answers rabbitmqctl.
ENGINE = """case "$1" in
  info) exit 0 ;;
  image) echo "rabbitmq:4.1"; echo "rabbitmq:<none>" ;;
  run) echo "  completed with 0 plugins."; echo "Server startup complete"; exec /bin/sleep 300 ;;
  exec) case "$*" in *rabbit_misc:version*) echo '"4.1.2"' ;; *consumer_timeout*) echo '{ok,3000}' ;; esac ;;
  rm) exit 0 ;;
esac"""


def test_a_rabbitmq_url_comes_first_even_with_rabbitmq_server_installed(machine, monkeypatch):
    machine.server()
    machine.reachable()
    monkeypatch.setenv(sources.URL_ENV, AMQP_URL)
    found = sources.find(3000)
    assert found.kind == "url" and found.node.url == AMQP_URL and found.variable == sources.URL_ENV
    assert found.notes == []


def test_the_labs_broker_url_counts_only_when_it_is_amqp(machine, monkeypatch):
    machine.server()
    machine.reachable()
    monkeypatch.setenv(LAB_BROKER_ENV, "redis://127.0.0.1:6379/0")
    assert sources.find(3000).kind == "system"
    monkeypatch.setenv(LAB_BROKER_ENV, AMQP_URL)
    found = sources.find(3000)
    assert (found.kind, found.variable) == ("url", LAB_BROKER_ENV)


def test_a_url_that_is_not_amqp_or_does_not_answer_is_said_and_passed_over(machine, monkeypatch):
    machine.server()
    monkeypatch.setattr(sources.UrlBroker, "unreachable", lambda self: "ConnectionRefusedError: [Errno 111]")
    monkeypatch.setenv(sources.URL_ENV, "redis://127.0.0.1:6379/0")
    found = sources.find(3000)
    assert found.kind == "system" and "is not an AMQP URL" in found.notes[0]
    monkeypatch.setenv(sources.URL_ENV, AMQP_URL)
    found = sources.find(3000)
    assert found.kind == "system"
    assert "did not answer (ConnectionRefusedError" in found.notes[0] and "secret" not in found.notes[0]


@pytest.mark.live  # the fake engine's "node" is a process
def test_without_rabbitmq_server_a_container_from_a_local_image(machine):
    machine.program("docker", ENGINE)
    found = sources.find(3000)
    node = found.node
    try:
        assert found.kind == "container" and isinstance(node, container.RabbitContainer)
        assert "not installed on this machine" in found.notes[0]
        assert node.image == "rabbitmq:4.1" and node.url == f"amqp://guest:guest@127.0.0.1:{node.port}//"
        assert (node.version(), node.consumer_timeout()) == ("4.1.2", 3000)
        run = next(line for line in machine.called().splitlines() if " run " in line)
        assert f"-p 127.0.0.1:{node.port}:5672" in run and "--rm" in run
        assert "RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS=-rabbit consumer_timeout 3000 -rabbit channel_tick_interval 500" in run
    finally:
        node.stop()
    assert f"rm -f {node.name}" in machine.called() and node.process is None and not node.folder.exists()


@pytest.mark.live  # the fake engine's "node" is a process
def test_an_engine_that_does_not_answer_or_holds_no_image_is_said_and_the_next_is_tried(machine):
    machine.program("docker", 'echo "Cannot connect to the Docker daemon" >&2; exit 1')
    machine.program("podman", ENGINE.replace('echo "rabbitmq:4.1"; ', ""))  # answers, no image
    found = sources.find(3000)
    assert found.kind == "recorded" and found.node is None
    assert [note.split(" ")[0] for note in found.notes] == ["RabbitMQ", "docker", "podman"]
    assert "Cannot connect to the Docker daemon" in found.notes[1]
    assert "podman pull rabbitmq:4" in found.notes[2]
    assert " run " not in machine.called()  # nothing started, nothing downloaded
    assert " pull " not in machine.called()
    machine.program("podman", ENGINE)
    found = sources.find(3000)
    try:
        assert found.kind == "container" and found.node.engine_name == "podman"
    finally:
        found.node.stop()


def test_with_nothing_at_all_the_recorded_run_and_what_was_missing(machine):
    found = sources.find(3000)
    assert (found.kind, found.node, found.absent) == ("recorded", None, "rabbitmq-server, rabbitmqctl")
    assert len(found.notes) == 2 and "docker, podman" in found.notes[1]


class Recorder:
    """A stand-in for a broker given by URL: what the page would delete, and no network."""

    managed = False
    url = AMQP_URL

    def __init__(self):
        self.declared = []


@pytest.fixture
def on_url(monkeypatch):
    """The page's run on a RabbitMQ given by URL (no node the page manages), in English."""
    monkeypatch.setenv("CELERYLAB_LANG", "en")
    monkeypatch.setattr(i18n, "_current", "en")
    monkeypatch.setattr(sources, "UrlBroker", Recorder)
    monkeypatch.setattr(page, "RUN", page.Run(node=Recorder(), kind="url", recorded=page.atomic.read_json(page.RECORDED)))
    return page.RUN


@pytest.mark.parametrize("name", sorted(page.NODE_ONLY))
def test_on_a_url_a_cell_that_needs_the_node_says_why_and_shows_the_recorded_figure(on_url, name):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        value = page.measure(name, lambda: pytest.fail("measured on a broker the page does not manage"))
    assert value == on_url.recorded["measured"][name]
    assert out.getvalue().startswith("[recorded: this cell ") and "given by URL" in out.getvalue()


def test_on_a_url_the_other_cells_measure_and_their_queues_are_kept_for_deletion(on_url):
    assert page.measure("costs", lambda: {"live": 1}) == {"live": 1}
    queue = helpers.queue_name("pub")
    assert on_url.node.declared == [queue]


def test_the_experiments_redis_ignores_an_amqp_lab_broker(monkeypatch):
    monkeypatch.setenv(LAB_BROKER_ENV, "redis://127.0.0.1:6379/0")
    assert helpers.results_broker_kind() is None  # the URL is the stacks' Redis, as in every lesson
    monkeypatch.setenv(LAB_BROKER_ENV, AMQP_URL)
    assert helpers.results_broker_kind() in ("redis-server", "packaged", "embedded")


def test_a_url_broker_refuses_rabbitmqctl_in_words():
    with pytest.raises(StackError, match=r"amqp://learner:\*\*@rabbit.example:5672/lab .*`rabbitmqctl list_queues`"):
        sources.UrlBroker(AMQP_URL).ctl("list_queues")


@pytest.mark.live
@pytest.mark.needs("rabbitmq")
def test_on_the_machines_rabbitmq_by_url_the_page_measures_what_it_can_and_deletes_its_queues(monkeypatch):
    """The URL branch end to end on the machine's RabbitMQ (guest, the default vhost: making a vhost takes the
    node's management, which a URL does not give): the node cell's line, a cell measured live (300 publishes),
    a cell that needs the node shown as recorded, and the page's queue gone at the end."""
    from celerylab.lessons.l08_rabbitmq.experiments.publish_cost import publish_cost

    monkeypatch.setenv(sources.URL_ENV, machine_needs.RABBITMQ)
    monkeypatch.setenv("CELERYLAB_LANG", "en")
    monkeypatch.setattr(i18n, "_current", "en")
    monkeypatch.setattr(page, "RUN", page.Run())
    monkeypatch.setattr(RabbitNode, "start", lambda self: pytest.fail("a private node was started"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        node = helpers.start_node()
        try:
            costs = page.measure("costs", lambda: {str(confirm): publish_cost(node, confirm=confirm)
                                                   for confirm in (False, True)})
            late = page.measure("late", lambda: pytest.fail("measured on a broker the page does not manage"))
            queues = list(node.declared)
        finally:
            helpers.stop_node(node)
    printed = out.getvalue()
    with Connection(machine_needs.RABBITMQ) as connection:
        version = connection.default_channel.connection.server_properties["version"]
    assert printed.startswith(f"This page's RabbitMQ: RabbitMQ {version} at amqp://guest:**@127.0.0.1:5672//")
    assert [costs[key].published for key in ("False", "True")] == [300, 300]
    assert late == page.RUN.recorded["measured"]["late"] and "[recorded: this cell needs the 3000 ms" in printed
    assert len(queues) == 2 and all(helpers.ready(node, queue) is None for queue in queues)
    assert os.environ[sources.URL_ENV] == machine_needs.RABBITMQ
