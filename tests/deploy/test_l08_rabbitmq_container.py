"""Lesson 08 takes its RabbitMQ from a Docker container where the machine has no rabbitmq-server: a real engine, a
local `rabbitmq:4.3` image (made from the Debian root of RabbitMQ 4.3, nothing pulled), the system's RabbitMQ hidden."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from celerylab.stack import rabbitmq_roots

RUNNER = Path(__file__).with_name("l08_container_run.py")
RELEASE = "4.3"

pytestmark = [pytest.mark.live, pytest.mark.slow, pytest.mark.needs("docker"), pytest.mark.timeout(1200)]


def test_lesson_08_finds_its_rabbitmq_in_a_docker_container():
    why = rabbitmq_roots.missing(RELEASE)
    if why:
        pytest.skip(why)
    if not (shutil.which("unshare") and shutil.which("ip")):
        pytest.skip("needs unshare and ip: the engine runs in namespaces of its own (Debian/Ubuntu: apt install "
                    "util-linux iproute2; Fedora: dnf install util-linux iproute)")
    # its own network (the engine's bridge and veths) and mount namespaces (the system's RabbitMQ hidden), as root
    run = subprocess.run(["unshare", "--net", "--mount", "--fork", sys.executable, str(RUNNER),
                          str(rabbitmq_roots.root_of(RELEASE)), f"rabbitmq:{RELEASE}"],
                         capture_output=True, text=True, timeout=1100)
    lines = [line for line in run.stdout.splitlines() if line.startswith("RESULT ")]
    assert run.returncode == 0 and lines, (run.stdout + run.stderr)[-4000:]
    result = json.loads(lines[-1].removeprefix("RESULT "))
    assert result["system_missing"] == "rabbitmq-server, rabbitmqctl"
    assert (result["kind"], result["engine"], result["image"], result["running"]) == (
        "container", "docker", f"rabbitmq:{RELEASE}", [f"rabbitmq:{RELEASE}"]), result
    assert result["version"].startswith(RELEASE + ".") and result["server_version"] == result["version"], result
    assert result["consumer_timeout"] == 3000, result  # the lab's timeout, given as an Erlang argument, read back
    assert result["roundtrip"] == {"hello": "container"}
    assert result["left"] == [], result  # the container is removed when the page stops its node
