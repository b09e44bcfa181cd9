"""A worker started as on another machine, later: empty temporary and home folders, only the code in the code's
folders, another host name, a wall clock months ahead; the stack's own folders kept."""
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


def local_roots() -> list[str]:
    """The folders a machine keeps to itself, which a new machine has empty: the temporary ones and the home folder."""
    home = os.path.realpath(os.environ.get("HOME") or "/")
    return [*PRIVATE_TMP, *([home] if home != "/" and os.path.isdir(home) else [])]


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def isolated(argv: list[str], keep: list[str], code: list[tuple[str, str]] | None = None) -> list[str]:
    """`argv` run by bwrap as on another machine: its own empty /tmp (a fresh working folder in it), /var/tmp,
    /dev/shm and home folder (unless `keep` names that very folder), a host name of its own, the rest of the machine's
    files as they are; each existing folder of `keep` inside one of those emptied is bound back (the stack's folder,
    the interpreter, import paths), and each ``(copy, folder)`` of `code` shows `copy` at `folder` (the code
    deployed, nothing the old worker wrote beside it)."""
    kept_paths = sorted({os.path.realpath(path) for path in keep if os.path.isabs(path) and os.path.exists(path)})
    emptied = [root for root in local_roots() if root not in kept_paths]
    mounts = [(root, ["--tmpfs", root]) for root in emptied]
    mounts += [(path, ["--bind", path, path]) for path in kept_paths
               if any(_within(path, root) for root in emptied)]
    mounts.sort(key=lambda mount: mount[0].rstrip("/").count("/"))  # a folder before what is mounted inside it
    deployed = [arg for copy, folder in code or [] for arg in ("--bind", copy, folder)]
    return [bwrap() or "bwrap", "--bind", "/", "/", "--dev-bind", "/dev", "/dev",
            *(arg for _, args in mounts for arg in args), *deployed,
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


def private_entries(stack=None) -> set[str]:
    """The entries, now, of the job's own temporary folders, its home folder and the code folders of `stack`."""
    found: set[str] = set()
    for folder in [*local_roots(), *code_folders(stack)]:
        try:
            found.update(os.path.join(folder, name) for name in os.listdir(folder))
        except OSError:
            continue
    return found


def code_folders(stack) -> list[str]:
    """The folders the stack's code is imported from, besides the lesson's package: the learner's answer's."""
    return [str(folder) for folder in getattr(getattr(stack, "spec", None), "pythonpath", ()) if os.path.isdir(folder)]


def deployed_copy(folder: str, into: Path) -> str:
    """A copy of what a deploy brings of `folder`: its modules and packages, nothing else (no data a task wrote)."""
    into.mkdir(parents=True)
    for entry in Path(folder).iterdir():
        if entry.is_file() and entry.suffix == ".py":
            shutil.copy2(entry, into / entry.name)
        elif entry.is_dir() and (entry / "__init__.py").is_file():
            shutil.copytree(entry, into / entry.name, ignore=shutil.ignore_patterns("__pycache__"))
    return str(into)


def forget_local_files(before: set[str], keep: list[str], stack=None) -> list[str]:
    """Remove what appeared in the job's temporary and home folders and the code's folders since `before` (the
    stack's own files were there by then), except the paths of `keep` and the folders holding them; the paths
    removed."""
    kept = [Path(path).resolve() for path in keep if path]
    removed = []
    for entry in sorted(private_entries(stack) - before):
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
    """Start one more worker of `stack` as on another machine, `days` later: nothing the other workers wrote in the
    temporary folders, the home folder, their working folder or beside the code is there, its host name is another,
    its clock `days` ahead. Where bwrap cannot run: inside the grader's sandbox, what appeared in those folders since
    `before` (`private_entries(stack)`) is removed first; elsewhere, a plain worker (another process, host name and
    clock only)."""
    index = stack._next_index("worker")
    nodename = spec.name or f"w{index}-{stack.id}@%h"  # %h: HOSTNAME, as the worker sees it
    argv = later(worker_argv(stack.spec.app, spec, nodename), days)
    keep = [str(stack.workdir), *map(str, stack.pythonpath), sys.prefix, sys.base_prefix, *sys.path]
    if available():
        code = [(deployed_copy(folder, stack.workdir / f"deployed-{index}-{number}"), folder)
                for number, folder in enumerate(code_folders(stack))]
        argv = isolated(argv, keep, code)
    elif before is not None and in_job_sandbox():
        forget_local_files(before, keep, stack)
    env = {**spec.env, **stack._settings_env(spec.celery_settings())}
    node = stack.start_node(WorkerNode, f"worker{index}", argv, WORKER_READY, env, spec=spec, nodename=nodename)
    node.index = index
    stack.workers.append(node)
    stack.workers.sort(key=lambda worker: worker.index)
    return node
