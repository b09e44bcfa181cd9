"""A worker started as on another machine: its own empty /tmp and working folder, the stack's code and data kept."""
from __future__ import annotations

import functools
import subprocess
import sys

from celerylab.stack.celery_commands import WORKER_READY, worker_argv
from celerylab.stack.rabbitmq_node import bwrap
from celerylab.stack.spec import WorkerSpec
from celerylab.stack.worker_node import WorkerNode

TMP = "/tmp"
WORKDIR = "/tmp/another-machine"  # the worker's working folder, inside its own /tmp


def isolated(argv: list[str], keep: list[str]) -> list[str]:
    """`argv` run by bwrap with an empty /tmp of its own (a fresh working folder in it), the rest of the machine's
    files as they are, and each folder of `keep` that lies under /tmp (the stack's folder, import paths) kept."""
    kept = [arg for path in sorted(set(keep)) if path.startswith(TMP + "/") for arg in ("--bind", path, path)]
    return [bwrap() or "bwrap", "--bind", "/", "/", "--dev-bind", "/dev", "/dev", "--tmpfs", TMP, *kept,
            "--dir", WORKDIR, "--chdir", WORKDIR, "--die-with-parent", "--", *argv]


@functools.cache
def available() -> bool:
    """Whether bwrap can give a process its own /tmp here (inside the grader's sandbox too)."""
    if bwrap() is None:
        return False
    try:
        return subprocess.run(isolated(["true"], []), capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def add_worker(stack, spec: WorkerSpec) -> WorkerNode:
    """Start one more worker of `stack` as on another machine: nothing the other workers wrote under /tmp or in
    their working folder is there. Where bwrap cannot run, a plain worker (another process only)."""
    index = stack._next_index("worker")
    nodename = spec.name or f"w{index}-{stack.id}@%h"
    argv = worker_argv(stack.spec.app, spec, nodename)
    if available():
        argv = isolated(argv, [str(stack.workdir), *map(str, stack.pythonpath), sys.prefix, *sys.path])
    env = {**spec.env, **stack._settings_env(spec.celery_settings())}
    node = stack.start_node(WorkerNode, f"worker{index}", argv, WORKER_READY, env, spec=spec, nodename=nodename)
    node.index = index
    stack.workers.append(node)
    stack.workers.sort(key=lambda worker: worker.index)
    return node
