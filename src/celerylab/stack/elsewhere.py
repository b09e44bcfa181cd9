"""A worker started as on another machine, later: its own empty /tmp and working folder, another host name, a wall
clock months ahead; the stack's code and data kept."""
from __future__ import annotations

import functools
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

from celerylab.grader.sandbox.identities import JOB_NAME
from celerylab.stack.celery_commands import WORKER_READY, worker_argv
from celerylab.stack.rabbitmq_node import bwrap
from celerylab.stack.spec import WorkerSpec
from celerylab.stack.worker_node import WorkerNode

TMP = "/tmp"
WORKDIR = "/tmp/another-machine"  # the worker's working folder, inside its own /tmp
HOSTNAME = "another-machine"  # the host name the new worker (and the task's code in it) sees
#: Where the job sandbox gives each job memory of its own (grader/sandbox/bwrap.py): a nested bwrap cannot run there,
#: so the new worker shares them, and what the old one left in them is removed instead.
PRIVATE_TMP = ("/tmp", "/var/tmp", "/dev/shm")


def isolated(argv: list[str], keep: list[str]) -> list[str]:
    """`argv` run by bwrap with an empty /tmp of its own (a fresh working folder in it), a host name of its own, the
    rest of the machine's files as they are, and each folder of `keep` that lies under /tmp (the stack's folder,
    import paths) kept."""
    kept = [arg for path in sorted(set(keep)) if path.startswith(TMP + "/") for arg in ("--bind", path, path)]
    return [bwrap() or "bwrap", "--bind", "/", "/", "--dev-bind", "/dev", "/dev", "--tmpfs", TMP, *kept,
            "--unshare-uts", "--hostname", HOSTNAME,
            "--dir", WORKDIR, "--chdir", WORKDIR, "--die-with-parent", "--", *argv]


def later(argv: list[str], days: float) -> list[str]:
    """`argv` (a Celery command) run with the host name HOSTNAME and a wall clock `days` ahead (elsewhere_clock.py)."""
    return [sys.executable, "-m", "celerylab.stack.elsewhere_clock", "--hostname", HOSTNAME,
            "--days", str(days), "--", *argv]


@functools.cache
def available() -> bool:
    """Whether bwrap can give a process its own /tmp here (inside the grader's sandbox too)."""
    if bwrap() is None:
        return False
    try:
        return subprocess.run(isolated(["true"], []), capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def in_job_sandbox() -> bool:
    """Whether this process runs in the grader's job sandbox, whose /tmp, /var/tmp and /dev/shm are its own."""
    return socket.gethostname() == JOB_NAME and os.environ.get("USER") == JOB_NAME


def private_entries() -> set[str]:
    """The entries of the job's own temporary folders, now."""
    found: set[str] = set()
    for folder in PRIVATE_TMP:
        try:
            found.update(os.path.join(folder, name) for name in os.listdir(folder))
        except OSError:
            continue
    return found


def forget_local_files(before: set[str], keep: list[str]) -> list[str]:
    """Remove what appeared in the job's temporary folders since `before` (the stack's own files were there by
    then), except the paths of `keep` and the folders holding them; the paths removed."""
    kept = [Path(path).resolve() for path in keep if path]
    removed = []
    for entry in sorted(private_entries() - before):
        path = Path(entry)
        if any(path == keep_path or path in keep_path.parents for keep_path in kept):
            continue
        try:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
            removed.append(entry)
        except OSError:
            continue
    return removed


def add_worker(stack, spec: WorkerSpec, days: float = 0.0, before: set[str] | None = None) -> WorkerNode:
    """Start one more worker of `stack` as on another machine, `days` later: nothing the other workers wrote under
    /tmp or in their working folder is there, its host name is another, its clock `days` ahead. Where bwrap cannot
    run: inside the grader's sandbox, what appeared in the job's temporary folders since `before` is removed first;
    elsewhere, a plain worker (another process, host name and clock only)."""
    index = stack._next_index("worker")
    nodename = spec.name or f"w{index}-{stack.id}@%h"  # %h: HOSTNAME, as the worker sees it
    argv = later(worker_argv(stack.spec.app, spec, nodename), days)
    keep = [str(stack.workdir), *map(str, stack.pythonpath), sys.prefix, *sys.path]
    if available():
        argv = isolated(argv, keep)
    elif before is not None and in_job_sandbox():
        forget_local_files(before, [*keep, os.environ.get("HOME", "")])
    env = {**spec.env, **stack._settings_env(spec.celery_settings())}
    node = stack.start_node(WorkerNode, f"worker{index}", argv, WORKER_READY, env, spec=spec, nodename=nodename)
    node.index = index
    stack.workers.append(node)
    stack.workers.sort(key=lambda worker: worker.index)
    return node
