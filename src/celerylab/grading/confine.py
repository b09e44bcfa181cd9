"""Confining a grading job with what Linux offers (namespaces, a job-only user, rlimits), each part detected at run time.

Called by the job process on itself, before any learner code runs; everything it starts (the
kernel, the stacks, their workers) inherits the confinement. Each part that the machine does not
allow is named in `missing`, and the grader warns about it.
"""
from __future__ import annotations

import ctypes
import fcntl
import os
import resource
import socket
import struct
import sys
from pathlib import Path

from celerylab.grading import job_cgroup

CLONE_NEWNS, CLONE_NEWNET = 0x00020000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 32, 4096, 16384, 1 << 18
PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS = 4, 38
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
O_PATH = 0o10000000

LIMITS = {"memory": (resource.RLIMIT_AS, 4 * 2**30), "file_size": (resource.RLIMIT_FSIZE, 512 * 2**20),
          "core": (resource.RLIMIT_CORE, 0)}
PROCESSES = 512  # per job user (threads count too): a fork bomb stops here
JOB_MEMORY = 3 * 2**30  # the whole job (kernel, stacks, workers, checks) in one memory cgroup

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int) -> None:
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))


def _mount(source: str | None, target: str, kind: str | None, flags: int, data: str | None = None) -> None:
    encode = lambda text: text.encode() if text is not None else None  # noqa: E731
    _check(_libc.mount(encode(source), encode(target), encode(kind), ctypes.c_ulong(flags), encode(data)))


def rlimits(cpu_seconds: float) -> None:
    """Per process: address space, file size, no core files, CPU seconds (the job's whole budget)."""
    for kind, value in [*LIMITS.values(), (resource.RLIMIT_CPU, max(1, int(cpu_seconds)))]:
        hard = resource.getrlimit(kind)[1]
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(kind, (value, value))


def private_network() -> None:
    """A network namespace with only its own loopback: the job's stack works, nothing else is reachable."""
    _check(_libc.unshare(CLONE_NEWNET))
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(probe, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(probe, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))


def closed_ancestor(path: Path) -> Path | None:
    """The topmost folder above `path` that other users cannot enter (e.g. /root holding a pyenv Python)."""
    for folder in reversed(path.parents):
        if folder != Path("/") and not os.stat(folder).st_mode & 0o001:
            return folder
    return None


def expose(needed: list[Path]) -> None:
    """Let the job's user reach `needed` (the interpreter) by covering its closed ancestor with only those paths."""
    covers: dict[Path, list[Path]] = {}
    for path in needed:
        closed = closed_ancestor(path)
        if closed is not None:
            covers.setdefault(closed, []).append(path)
    for closed, paths in covers.items():
        cover_keeping(closed, paths, "mode=0755")


def cover_keeping(folder: Path, kept: list[Path], options: str) -> None:
    """A fresh tmpfs over `folder`, with each of `kept` (paths below it) bound back in place."""
    handles = [(path, os.open(path, O_PATH | os.O_CLOEXEC)) for path in kept]
    try:
        _mount("tmpfs", str(folder), "tmpfs", MS_NOSUID | MS_NODEV, options)
        for path, handle in handles:
            path.mkdir(parents=True, exist_ok=True)
            _mount(f"/proc/self/fd/{handle}", str(path), None, MS_BIND | MS_REC)
    finally:
        for _, handle in handles:
            os.close(handle)


def kept_under_tmp(own: Path) -> list[Path]:
    """What the job needs that may live under /tmp: its own folder, the interpreter, the package, the course.

    A checkout cloned under /tmp (as CI may do) must stay reachable once /tmp is private;
    the topmost of nested paths is enough.
    """
    from celerylab.course import CHECKOUT, Course

    wanted = {own, Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), CHECKOUT.resolve(),
              Course.default().lessons_dir.resolve()}
    under = sorted(path for path in wanted if path.is_relative_to("/tmp") and path != Path("/tmp"))
    return [path for path in under if not any(path != other and path.is_relative_to(other) for other in under)]


def private_mounts(own: Path, hide: list[str], blank: list[str]) -> None:
    """A mount namespace: a private /tmp holding only what this job needs, empty folders over `hide`, empty files over `blank`."""
    _check(_libc.unshare(CLONE_NEWNS))
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    expose(sorted({Path(sys.base_prefix).resolve(), Path(sys.prefix).resolve(), Path(sys.executable).resolve().parent}))
    own.mkdir(parents=True, exist_ok=True)
    cover_keeping(Path("/tmp"), kept_under_tmp(own), "mode=1777")
    for folder in hide:
        if os.path.isdir(folder):
            _mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV | MS_RDONLY, "mode=0555,size=4k")
    for path in blank:
        if os.path.isfile(path):
            _mount("/dev/null", path, None, MS_BIND)


def job_user(uid: int, writable: list[Path]) -> None:
    """Become `uid` (a user only this job has), after giving it the folders it may write; drops every capability."""
    for folder in writable:
        for place, dirs, files in os.walk(folder):
            for name in [place, *(os.path.join(place, entry) for entry in dirs + files)]:
                os.lchown(name, uid, uid)
    hard = resource.getrlimit(resource.RLIMIT_NPROC)[1]
    limit = PROCESSES if hard == resource.RLIM_INFINITY else min(PROCESSES, hard)
    resource.setrlimit(resource.RLIMIT_NPROC, (limit, limit))
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


def seal() -> None:
    """No privilege gained by exec from now on, and no process of the same user may read this one's memory or fds."""
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
    _check(_libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))


def confine(spec: dict, own: Path, writable: list[Path], blank: list[str]) -> dict:
    """Apply every part the machine allows; returns {"given": [...], "missing": [...]}."""
    given, missing = [], []

    def attempt(name: str, action) -> bool:
        try:
            action()
        except (OSError, ValueError, AttributeError) as error:
            missing.append(f"{name} ({getattr(error, 'strerror', None) or error})")
            return False
        given.append(name)
        return True

    attempt("rlimits", lambda: rlimits(spec.get("cpu_seconds", 3600)))
    attempt("memory_total", lambda: job_cgroup.enter(int(spec.get("memory_total", JOB_MEMORY))))
    attempt("network", private_network)
    attempt("mounts", lambda: private_mounts(own, spec.get("hide", []), blank))
    if os.geteuid() == 0 and spec.get("uid"):
        attempt("user", lambda: job_user(int(spec["uid"]), writable))
    else:
        missing.append("user (needs root)")
    attempt("sealed", seal)
    return {"given": given, "missing": missing}
