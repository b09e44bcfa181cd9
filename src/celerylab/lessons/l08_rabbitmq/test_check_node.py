"""The checks' shared node: started once per process, a fresh virtual host per check, a node that died started again, none left when its owner dies."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest
from kombu import Connection

from celerylab.lessons.l08_rabbitmq import check_node
from celerylab.polling import until

pytestmark = [pytest.mark.live, pytest.mark.needs("rabbitmq-server")]


def test_the_erlang_sets_the_timeout_and_gives_guest_each_new_host():
    code = check_node._erlang(30000, ["check-1", "check-2"])
    assert code.startswith("application:set_env(rabbit, consumer_timeout, 30000), ")
    assert '<<"check-1">>, <<"check-2">>' in code and code.endswith("ok.")


def test_checks_reuse_one_node_each_on_hosts_no_other_check_sees():
    steps = []
    check_node.stop()
    try:
        with check_node.virtual_hosts(3000, 2, say=steps.append) as (first, second):
            node = first.node
            with Connection(first.url) as connection:
                connection.SimpleQueue("left-behind").put("a message another check must not see")
            with Connection(second.url) as connection:
                with pytest.raises(Exception, match="NOT_FOUND"):  # the other host of the same check
                    connection.default_channel.queue_declare("left-behind", passive=True)
        with check_node.virtual_hosts(30000, 1, say=steps.append) as (later,):
            assert later.node is node and later.name not in (first.name, second.name)
            assert node.consumer_timeout() == 30000
            with Connection(later.url) as connection:
                with pytest.raises(Exception, match="NOT_FOUND"):  # a later check starts clean
                    connection.default_channel.queue_declare("left-behind", passive=True)
        assert steps == ["l08.check.step.broker"]  # started once, announced once
        node.process.kill(group=True)  # a node that died (the OOM killer): the next check starts another
        assert until(lambda: not node.process.alive, 10)
        with check_node.virtual_hosts(3000, 1, say=steps.append) as (again,):
            assert again.node is not node and steps[-1] == "l08.check.step.broker"
            with Connection(again.url) as connection:
                connection.ensure_connection(max_retries=1)
    finally:
        check_node.stop()


OWNER = """
import json, time
from celerylab.lessons.l08_rabbitmq import check_node
with check_node.virtual_hosts(3000, 1) as (host,):
    print(json.dumps({"pgid": host.node.process.pid, "folder": str(host.node.folder)}), flush=True)
    time.sleep(120)
"""


def test_a_node_whose_owner_is_sigkilled_does_not_live_on():
    owner = subprocess.Popen([sys.executable, "-c", OWNER], stdout=subprocess.PIPE, text=True)
    try:
        started = json.loads(owner.stdout.readline())
        members = [process for process in psutil.process_iter() if _group(process) == started["pgid"]]
        assert any("beam" in process.name() for process in members)  # the Erlang VM
    finally:
        os.kill(owner.pid, signal.SIGKILL)
        owner.wait()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(_group(p) == started["pgid"] for p in psutil.process_iter()):
        time.sleep(0.2)
    assert not [p.pid for p in psutil.process_iter() if _group(p) == started["pgid"]], "the Erlang VM outlived its owner"
    while time.monotonic() < deadline and os.path.exists(started["folder"]):
        time.sleep(0.2)
    assert not os.path.exists(started["folder"])


def _group(process: psutil.Process) -> int | None:
    try:
        return os.getpgid(process.pid) if process.status() != psutil.STATUS_ZOMBIE else None
    except (ProcessLookupError, psutil.Error):
        return None
