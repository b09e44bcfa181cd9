"""The stack's broker as a value: which server it is (INFO server), and stop/start/restart of one the stack owns."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import redis

from celerylab.stack.errors import StackError
from celerylab.stack.process import ManagedProcess


def fakeredis_version() -> str:
    try:
        return metadata.version("fakeredis")
    except metadata.PackageNotFoundError:
        return "?"


@dataclass
class Broker:
    """Where the stack's messages and results live; ``kind`` is one of KINDS.

    `server` and `version` come from the server itself (INFO server); `real_redis` is
    False on fakeredis, a reimplementation whose timings and edge cases (expiry, restore
    scans, restarts) may differ from a real Redis. `package` names the Python package
    that shipped the redis-server binary (kind "packaged").
    """

    kind: str
    url: str
    process: ManagedProcess | None = field(default=None, repr=False)
    server: str = "Redis"
    version: str = "?"
    real_redis: bool = True
    package: str | None = None

    @property
    def label(self) -> str:
        """The server and its version, e.g. ``Redis 7.0.15`` or ``fakeredis 2.41.0``."""
        return self.server if self.version == "?" else f"{self.server} {self.version}"

    def identify(self) -> "Broker":
        """Ask the server what it is (INFO server). One that refuses INFO (fakeredis has none)
        cannot be told apart from a real Redis: it counts as not real."""
        client = redis.Redis.from_url(self.url, socket_timeout=5, socket_connect_timeout=5)
        try:
            info = client.info("server")
        except redis.ResponseError:
            self.server, self.version, self.real_redis = "?", "?", False
            return self
        finally:
            client.close()
        self.server = "Valkey" if "valkey_version" in info else "Redis"
        self.version = str(info.get("valkey_version") or info.get("redis_version") or "?")
        return self

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
