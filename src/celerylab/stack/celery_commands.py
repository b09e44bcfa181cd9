"""The Celery command lines of a stack's worker, beat and flower processes, and the log line that says each is ready."""
from __future__ import annotations

import sys

from celerylab.stack.spec import WorkerSpec

WORKER_READY = r"\bready\.$"
BEAT_READY = r"beat: Starting"
FLOWER_READY = r"Visit me at"


def celery_argv(app: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "celery", "-A", app, *args]


def worker_argv(app: str, spec: WorkerSpec, nodename: str) -> list[str]:
    """Celery's default worker flags (heartbeat, gossip and mingle on); a lesson turns one off in
    its own cell with ``WorkerSpec(extra_args=("--without-heartbeat",))``. ``-E`` sends the task
    events the stack's timeline reads (Flower sends the same request to every worker it finds)."""
    argv = celery_argv(app, "worker", "-P", spec.pool, "-c", str(spec.concurrency),
                       "-n", nodename, *(["-E"] if spec.task_events else []), "--loglevel", spec.loglevel)
    if spec.queues:
        argv += ["-Q", ",".join(spec.queues)]
    return argv + [str(arg) for arg in spec.extra_args]


def beat_argv(app: str, schedule_file: str, scheduler: str | None, max_interval: float) -> list[str]:
    argv = celery_argv(app, "beat", "-s", schedule_file, "--loglevel", "INFO",
                       "--max-interval", str(max(1, int(max_interval))))
    if scheduler:
        argv += ["-S", scheduler]
    return argv


def flower_argv(app: str, port: int, db_path: str) -> list[str]:
    return celery_argv(app, "flower", f"--port={port}", "--address=127.0.0.1",
                       f"--db={db_path}", "--persistent=False", "--purge_offline_workers=60")

