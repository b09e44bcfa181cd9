"""Choosing the broker and result backend: a given URL, a private redis-server, or embedded fakeredis."""
from __future__ import annotations

import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import redis

from celerylab.stack.errors import StackError
from celerylab.stack.ports import free_port
from celerylab.stack.process import ManagedProcess

URL_ENV = "CELERYLAB_BROKER_URL"
KINDS = ("url", "redis-server", "embedded")


@dataclass
class Broker:
    """Where the stack's messages and results live; ``kind`` is one of KINDS."""

    kind: str
    url: str
    process: ManagedProcess | None = field(default=None, repr=False)

    def ping(self, timeout: float = 2.0) -> bool:
        client = redis.Redis.from_url(self.url, socket_timeout=timeout, socket_connect_timeout=timeout)
        try:
            return bool(client.ping())
        finally:
            client.close()

    def close(self) -> None:
        if self.process is not None:
            self.process.stop(timeout=0.5)

    # -- restarting the broker under a running stack -----------------------------
    def _owned(self) -> ManagedProcess:
        if self.process is None:
            raise StackError("stack.broker_not_owned", url=self.url)
        return self.process

    def stop(self, keep_data: bool = False) -> None:
        """Stop the broker this stack started (same port on start()); keep_data saves its keys first."""
        process = self._owned()
        if self.kind == "embedded":
            if keep_data:
                raise StackError("stack.embedded_keeps_no_data")
            port = self.url.rsplit(":", 1)[1].split("/")[0]
            if "--port" not in process.argv:
                process.argv += ["--port", port]
        elif keep_data:
            client = redis.Redis.from_url(self.url, socket_timeout=10)
            try:
                client.save()
            finally:
                client.close()
        else:
            Path(process.cwd, "dump.rdb").unlink(missing_ok=True)
        process.stop(timeout=2)

    def start(self) -> None:
        """Start the broker again on its port, after stop()."""
        self._owned().start()

    def restart(self, downtime: float = 0, keep_data: bool = False) -> None:
        """stop(), `downtime` seconds with no broker, start(): clients see the connection drop."""
        self.stop(keep_data=keep_data)
        if downtime > 0:
            time.sleep(downtime)  # the outage itself, not a wait for a condition
        self.start()


def check_url(url: str) -> str:
    parsed = urlparse(url)
    if parsed.scheme not in {"redis", "rediss"} or not parsed.hostname:
        raise StackError("stack.bad_url", url=url)
    return url


def from_url(url: str) -> Broker:
    broker = Broker("url", check_url(url))
    try:
        broker.ping()
    except (redis.ConnectionError, redis.TimeoutError, OSError) as error:
        raise StackError("stack.unreachable", url=url, error=error) from error
    return broker


def private_redis_server(workdir: Path, binary: str) -> Broker:
    last: StackError | None = None
    for _ in range(3):
        port = free_port()
        process = ManagedProcess(
            "redis-server",
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--daemonize", "no", "--dir", str(workdir), "--loglevel", "notice"],
            cwd=workdir, log_path=workdir / "redis-server.log",
            ready_pattern=r"Ready to accept connections", ready_timeout=10,
        )
        try:
            process.start()
        except StackError as error:
            process.stop(timeout=1)
            last = error
            if "in use" not in error.log_tail:
                raise
            continue
        return Broker("redis-server", f"redis://127.0.0.1:{port}/0", process)
    raise last  # type: ignore[misc]


def embedded(workdir: Path) -> Broker:
    process = ManagedProcess(
        "embedded-redis", [sys.executable, "-m", "celerylab.stack.embedded_redis"],
        cwd=workdir, log_path=workdir / "embedded-redis.log", env=dict(os.environ),
        ready_pattern=r"listening on ", ready_timeout=15,
    )
    process.start()
    port = process.wait_for_log(r"listening on [\d.]+:(\d+)", 1).group(1)
    return Broker("embedded", f"redis://127.0.0.1:{port}/0", process)


def choose(workdir: Path, url: str | None = None, kind: str | None = None) -> Broker:
    """The broker for a new stack.

    `kind` forces one of KINDS; otherwise: `url` (or $CELERYLAB_BROKER_URL), else a
    private redis-server when the binary is on PATH, else embedded fakeredis.
    """
    if kind is not None and kind not in KINDS:
        raise StackError("stack.bad_kind", kind=kind, kinds=", ".join(KINDS))
    url = url or os.environ.get(URL_ENV) or None
    if kind == "url" or (kind is None and url):
        if not url:
            raise StackError("stack.no_url", env=URL_ENV)
        return from_url(url)
    binary = shutil.which("redis-server")
    if kind == "redis-server" and not binary:
        raise StackError("stack.no_redis_server")
    if binary and kind != "embedded":
        return private_redis_server(workdir, binary)
    return embedded(workdir)
