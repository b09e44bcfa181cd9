"""A private RabbitMQ node in a Docker or Podman container: a local `rabbitmq` image, a free loopback port, removed at the end.

It behaves as `RabbitNode` for the page: ``.url``, ``.ctl(...)`` (`rabbitmqctl` inside the container),
``.version()``, ``.consumer_timeout()``, ``.stop()``. The lab's short consumer_timeout and channel tick are given to
the node as Erlang arguments (`RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS`, which the image's scripts pass on), so no file
has to be shared with the engine. Nothing is downloaded: an image the engine does not hold already is not used.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

from celerylab.stack import guard
from celerylab.stack.errors import StackError
from celerylab.stack.ports import free_port
from celerylab.stack.process import ManagedProcess
from celerylab.stack.rabbitmq_node import READY, RabbitNode

ENGINES = ("docker", "podman")
IMAGE = "rabbitmq"       # the official image's repository; any tag the engine holds will do
IMAGE_ENV = "CELERYLAB_RABBITMQ_IMAGE"  # an image to use instead (it must be local too)
ANSWER_TIMEOUT = 10.0    # seconds an engine's `info` or `image ls` may take before it counts as not answering
# Started beside the container: removes it if the process that started it dies without stopping it (the stack's
# reaper knows process groups and folders, not containers).
WATCHER = ("import os, subprocess, sys, time\n"
           "owner, argv = int(sys.argv[1]), sys.argv[2:]\n"
           "while True:\n"
           "    try:\n"
           "        os.kill(owner, 0)\n"
           "    except ProcessLookupError:\n"
           "        break\n"
           "    time.sleep(1)\n"
           "subprocess.run(argv, capture_output=True)\n")


def run(argv: list[str], timeout: float = ANSWER_TIMEOUT) -> subprocess.CompletedProcess | None:
    """`argv`'s outcome, or None when it cannot run or does not finish within `timeout` s."""
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        return None


def engines() -> list[str]:
    """The container engines' programs on the PATH (docker first), answering or not."""
    return [found for found in (shutil.which(name) for name in ENGINES) if found]


def answers(engine: str) -> str:
    """"" when the engine answers (`docker info`: its daemon too), else why not, in the engine's own words."""
    outcome = run([engine, "info"])
    if outcome is None:
        return f"{os.path.basename(engine)} info: no answer in {ANSWER_TIMEOUT:.0f} s"
    said = (outcome.stderr.strip() or outcome.stdout.strip()).splitlines()
    return "" if outcome.returncode == 0 else (said[-1] if said else f"{os.path.basename(engine)} info: exit {outcome.returncode}")


def local_image(engine: str) -> str | None:
    """The RabbitMQ image the engine already holds ($CELERYLAB_RABBITMQ_IMAGE, else the newest `rabbitmq:<tag>`)."""
    wanted = os.environ.get(IMAGE_ENV)
    if wanted:
        outcome = run([engine, "image", "inspect", wanted])
        return wanted if outcome is not None and outcome.returncode == 0 else None
    outcome = run([engine, "image", "ls", IMAGE, "--format", "{{.Repository}}:{{.Tag}}"])
    if outcome is None or outcome.returncode != 0:
        return None
    tags = [line.strip() for line in outcome.stdout.splitlines() if line.strip() and not line.endswith(":<none>")]
    return tags[0] if tags else None


class RabbitContainer(RabbitNode):
    """``RabbitContainer(engine, image, consumer_timeout_ms=3000).start()``: the image's node on a free loopback port."""

    def __init__(self, engine: str, image: str, consumer_timeout_ms: int = 3000, tick_ms: int = 500):
        super().__init__(consumer_timeout_ms=consumer_timeout_ms, tick_ms=tick_ms)
        self.engine, self.image = engine, image
        self.watcher: subprocess.Popen | None = None

    @property
    def engine_name(self) -> str:
        return os.path.basename(self.engine)

    def run_argv(self) -> list[str]:
        """The engine's `run` command line: in the foreground (its output is the node's log), removed when it stops."""
        arguments = f"-rabbit consumer_timeout {self.consumer_timeout_ms} -rabbit channel_tick_interval {self.tick_ms}"
        return [self.engine, "run", "--rm", "--name", self.name, "-p", f"127.0.0.1:{self.port}:5672",
                "-e", f"RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS={arguments}", self.image]

    def remove_argv(self) -> list[str]:
        return [self.engine, "rm", "-f", self.name]

    def start(self) -> "RabbitContainer":
        guard.watch_folder(str(self.folder))
        self.port = free_port()
        self.name = f"celerylab-rabbitmq-{self.port}"
        self.watcher = subprocess.Popen([sys.executable, "-I", "-c", WATCHER, str(os.getpid()), *self.remove_argv()],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        self.process = ManagedProcess(f"{self.engine_name} run {self.image}", self.run_argv(), cwd=self.folder,
                                      log_path=self.folder / "rabbitmq.log", ready_pattern=READY, ready_timeout=180)
        try:
            self.process.start()
        except StackError:
            self.stop()
            raise
        return self

    def ctl(self, *args: str, timeout: float = 120) -> str:
        """`rabbitmqctl args...` inside the container (it talks to the container's node)."""
        outcome = run([self.engine, "exec", self.name, "rabbitmqctl", *args], timeout=timeout)
        return outcome.stdout if outcome is not None else ""

    def stop(self) -> None:
        """Remove the container (its engine stops it first), then the folder; the watcher has nothing left to do."""
        if self.process is not None:
            run(self.remove_argv(), timeout=60)
            self.process.stop(timeout=10)
            self.process = None
        if self.watcher is not None:
            self.watcher.kill()
            self.watcher.wait()
            self.watcher = None
        super().stop()
