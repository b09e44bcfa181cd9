"""Command lines and readiness signals for the stack's Celery roles: worker, beat and flower."""
from __future__ import annotations

import sys
import time
import urllib.request
from dataclasses import dataclass, field

from celerylab.stack.errors import StackError

WORKER_READY = r"\bready\.$"
BEAT_READY = r"beat: Starting"
FLOWER_READY = r"Visit me at"


@dataclass
class WorkerSpec:
    """One worker: queues it consumes, pool and concurrency, extra settings and environment."""

    queues: tuple[str, ...] = ()
    concurrency: int = 1
    pool: str = "solo"
    name: str | None = None
    settings: dict = field(default_factory=dict)
    env: dict = field(default_factory=dict)
    loglevel: str = "INFO"


def celery_argv(app: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "celery", "-A", app, *args]


def worker_argv(app: str, spec: WorkerSpec, nodename: str) -> list[str]:
    argv = celery_argv(app, "worker", "-P", spec.pool, "-c", str(spec.concurrency),
                       "-n", nodename, "--without-gossip", "--without-mingle",
                       "--without-heartbeat", "-E", "--loglevel", spec.loglevel)
    if spec.queues:
        argv += ["-Q", ",".join(spec.queues)]
    return argv


def beat_argv(app: str, schedule_file: str, scheduler: str | None, max_interval: float) -> list[str]:
    argv = celery_argv(app, "beat", "-s", schedule_file, "--loglevel", "INFO",
                       "--max-interval", str(max(1, int(max_interval))))
    if scheduler:
        argv += ["-S", scheduler]
    return argv


def flower_argv(app: str, port: int, db_path: str) -> list[str]:
    return celery_argv(app, "flower", f"--port={port}", "--address=127.0.0.1",
                       f"--db={db_path}", "--persistent=False", "--purge_offline_workers=60")


def wait_http_ok(url: str, timeout: float = 10.0) -> None:
    """Poll `url` until it answers 200 (each try bounded by its own timeout)."""
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return
        except OSError as error:
            last = error
        time.sleep(0.05)
    raise StackError("stack.http_timeout", url=url, error=last)
