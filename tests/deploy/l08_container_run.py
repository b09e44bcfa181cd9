"""Lesson 08's RabbitMQ found in a Docker container: run in its own network and mount namespaces (unshare), with the
system's RabbitMQ hidden, a private dockerd and a local `rabbitmq:<release>` image made from a Debian release root.

Usage: unshare --net --mount --fork python l08_container_run.py RELEASE_ROOT TAG [COMMAND...]. Prints one JSON line,
RESULT {...}: what lesson 08's `sources.find` got; with COMMAND, instead, COMMAND's exit status once run with the engine
(DOCKER_HOST) and the image there, e.g. a notebook of lesson 08 executed.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dockerengine import Engine  # noqa: E402

BRIDGE = "cldk-rabbit"          # the engine's default bridge, made here: it exists only in this network namespace
BRIDGE_ADDRESS = "10.214.0.1/24"
# What the official image sets and the Debian package does not: guest may connect through the published port (not
# from loopback inside the container), and the node logs to standard output (where the page waits for it to be up).
DEFAULTS = "loopback_users.guest = false\nlisteners.tcp.default = 5672\n"
CHANGES = ("ENV HOME=/var/lib/rabbitmq RABBITMQ_LOGS=-", 'CMD ["/usr/lib/rabbitmq/bin/rabbitmq-server"]')
HIDDEN = ("/usr/sbin/rabbitmq-server", "/usr/sbin/rabbitmqctl", "/usr/bin/rabbitmq-server", "/usr/bin/rabbitmqctl")


def run(*argv: str) -> None:
    subprocess.run(argv, check=True, capture_output=True)


def hide_system_rabbitmq(folder: Path) -> None:
    """The system's RabbitMQ programs out of reach in this mount namespace: an empty /usr/lib/rabbitmq, and each
    script replaced by an empty file that is not executable."""
    run("mount", "--make-rprivate", "/")
    if Path("/usr/lib/rabbitmq").is_dir():
        run("mount", "-t", "tmpfs", "tmpfs", "/usr/lib/rabbitmq")
    empty = folder / "empty"
    empty.write_text("")
    empty.chmod(0o644)
    for path in HIDDEN:
        if os.path.exists(path):  # a link into /usr/lib/rabbitmq dangles already
            run("mount", "--bind", str(empty), path)


def bridge() -> None:
    run("ip", "link", "set", "lo", "up")
    run("ip", "link", "add", "name", BRIDGE, "type", "bridge")
    run("ip", "addr", "add", BRIDGE_ADDRESS, "dev", BRIDGE)
    run("ip", "link", "set", BRIDGE, "up")


def make_image(engine: Engine, root: Path, tag: str, folder: Path) -> float:
    """`tag` imported from the release root, with the official image's defaults; seconds taken."""
    started = time.monotonic()
    conf = folder / "extra" / "etc" / "rabbitmq" / "conf.d"
    conf.mkdir(parents=True)
    (conf / "10-defaults.conf").write_text(DEFAULTS)
    changes = [arg for change in CHANGES for arg in ("--change", change)]
    tar = subprocess.Popen(["tar", "-C", str(root), "--numeric-owner", "-c", ".", "-C", str(folder / "extra"),
                            "etc/rabbitmq/conf.d/10-defaults.conf"], stdout=subprocess.PIPE)
    engine.docker("import", *changes, "-", tag, stdin=tar.stdout, timeout=900)
    assert tar.wait() == 0
    return time.monotonic() - started


def main(root: Path, tag: str, command: list[str]) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="l08-container-"))
    hide_system_rabbitmq(folder)
    bridge()
    engine = Engine()
    result: dict = {}
    try:
        engine.start(bridge=BRIDGE, yield_cpu=False)  # the node a system RabbitMQ would be: no lower weight
        os.environ.update({key: value for key, value in engine.env().items() if key.startswith("DOCKER")})
        result["import_s"] = round(make_image(engine, root, tag, folder), 1)
        if command:
            started = time.monotonic()
            result["returncode"] = subprocess.run(command).returncode
            result["command_s"] = round(time.monotonic() - started, 1)
            return result

        from celery import Celery

        from celerylab.lessons.l08_rabbitmq import sources
        from celerylab.stack import rabbitmq_node

        result["system_missing"] = rabbitmq_node.missing()
        started = time.monotonic()
        found = sources.find(consumer_timeout_ms=3000, env={})
        result.update(kind=found.kind, notes=found.notes, start_s=round(time.monotonic() - started, 1))
        node = found.node
        try:
            result.update(image=getattr(node, "image", None), engine=getattr(node, "engine_name", None),
                          version=node.version(), consumer_timeout=node.consumer_timeout(),
                          running=engine.docker("ps", "--format", "{{.Image}}").stdout.decode().split())
            app = Celery("l08_container", broker=node.url)
            with app.connection_for_write() as connection:
                connection.ensure_connection(max_retries=3)
                result["server_version"] = connection.connection.server_properties["version"]
                queue = connection.SimpleQueue("l08-container-check")
                queue.put({"hello": "container"})
                result["roundtrip"] = queue.get(timeout=10).payload
                queue.close()
        finally:
            node.stop()
        result["left"] = engine.docker("ps", "-a", "--format", "{{.Names}}").stdout.decode().split()
    finally:
        engine.stop()
    return result


if __name__ == "__main__":
    print("RESULT " + json.dumps(main(Path(sys.argv[1]), sys.argv[2], sys.argv[3:]), default=str), flush=True)
