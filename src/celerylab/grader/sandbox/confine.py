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
from typing import TYPE_CHECKING

from celerylab.grader.sandbox import job_cgroup

if TYPE_CHECKING:
    from celerylab.grader.spec import JobSpec

CLONE_NEWNS, CLONE_NEWNET = 0x00020000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 32, 4096, 16384, 1 << 18
PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS = 4, 38
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
O_PATH = 0o10000000

LIMITS = {"memory": (resource.RLIMIT_AS, 4 * 2**30), "file_size": (resource.RLIMIT_FSIZE, 512 * 2**20),
          "core": (resource.RLIMIT_CORE, 0)}
PROCESSES = 512  # per job user (threads count too): a fork bomb stops here
JOB_MEMORY = 3 * 2**30  # the whole job (kernel, stacks, workers, checks) in one memory cgroup
# Replaced by an empty tmpfs in every job: the world-writable folders (one job could leave files there for a
# later one) and the folders holding the host's Unix sockets (Redis, PostgreSQL, MySQL, RabbitMQ's epmd...),
# which a private network does not cover.
PRIVATE = ("/tmp", "/var/tmp", "/dev/shm", "/run", "/var/run", "/var/lock", "/run/lock", "/dev/mqueue")


def socket_folders() -> list[Path]:
    """The folders of the host's listening Unix sockets (``/proc/net/unix``, read before the network is
    private: it lists only the sockets of the reader's network namespace), wherever they are."""
    try:
        lines = Path("/proc/net/unix").read_text().splitlines()[1:]
    except OSError:
        return []
    paths = {Path(line.split()[7]).parent.resolve() for line in lines if len(line.split()) > 7 and line.split()[7].startswith("/")}
    return sorted(path for path in paths if path != Path("/"))

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


def topmost(paths) -> list[Path]:
    """`paths` without those inside another of them (binding the outer one is enough)."""
    paths = sorted(set(paths))
    return [path for path in paths if not any(path != other and path.is_relative_to(other) for other in paths)]


def installation(lessons_dir: Path) -> list[Path]:
    """Every folder the job imports from or reads the course in: the interpreter, each import path entry
    (site-packages, an editable checkout's ``src``), the package, the course's lessons."""
    from celerylab.course import PACKAGE

    wanted = [Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).resolve().parent, PACKAGE.parent,
              Path(lessons_dir), *(Path(entry) for entry in sys.path if entry)]
    return topmost(path.resolve() for path in wanted if path.is_absolute() and path.is_dir())


def covers_for(paths: list[Path], sockets: list[Path] = ()) -> dict[Path, list[Path]]:
    """The folders to replace with a fresh tmpfs, each with the paths below it to bind back: /tmp (private to
    the job), every world-writable folder and the socket folders (see `PRIVATE`), and the topmost closed
    ancestor of each path (a checkout under /root or under a 0700 `mktemp -d`)."""
    covers = {Path(folder).resolve() for folder in PRIVATE if os.path.isdir(folder)}
    covers |= {folder for folder in sockets if folder.is_dir() and not any(path.is_relative_to(folder) for path in paths)}
    covers |= {closed for closed in map(closed_ancestor, paths) if closed is not None}
    covers = set(topmost(covers))
    return {cover: topmost(path for path in paths if path.is_relative_to(cover) and path != cover)
            for cover in sorted(covers)}


def cover_keeping(folder: Path, kept: list[tuple[Path, int]], options: str) -> None:
    """A fresh tmpfs over `folder`, with each of `kept` (paths below it, with an O_PATH handle opened
    before any cover) bound back in place."""
    _mount("tmpfs", str(folder), "tmpfs", MS_NOSUID | MS_NODEV, options)
    for path, handle in kept:
        path.mkdir(parents=True, exist_ok=True)
        _mount(f"/proc/self/fd/{handle}", str(path), None, MS_BIND | MS_REC)


def read_only(path: Path) -> None:
    """Make the bind mount at `path` read-only (its submounts keep their own flags)."""
    _mount(None, str(path), None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID)


def private_mounts(own: Path, hide: list[str], blank: list[str], lessons_dir: Path,
                   sockets: list[Path] = ()) -> None:
    """A mount namespace: private /tmp and world-writable folders, the installation read-only and reachable
    by the job's user wherever it lives, empty folders over `hide`, empty files over `blank`."""
    _check(_libc.unshare(CLONE_NEWNS))
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    own.mkdir(parents=True, exist_ok=True)
    install = installation(lessons_dir)
    covers = covers_for(topmost([*install, own]), sockets)
    kept = {path for paths in covers.values() for path in paths}
    handles = {path: os.open(path, O_PATH | os.O_CLOEXEC) for path in kept}
    try:
        for cover, paths in covers.items():
            mode = "mode=1777" if os.stat(cover).st_mode & 0o002 else "mode=0755"
            cover_keeping(cover, [(path, handles[path]) for path in paths], mode)
        for path in sorted(kept):
            if path != own and not own.is_relative_to(path):
                read_only(path)
    finally:
        for handle in handles.values():
            os.close(handle)
    for folder in hide:
        if os.path.isdir(folder):
            _mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV | MS_RDONLY, "mode=0555,size=4k")
    for path in blank:
        if os.path.isfile(path):
            _mount("/dev/null", path, None, MS_BIND)


def job_user(uid: int, writable: list[Path], service_uid: int | None = None) -> None:
    """Become `uid` (a user only this job has), after giving it the folders it may write; drops every capability.

    With `service_uid`, that second user stays this process's saved user: the stack's services (the course
    fakes) start as it (celerylab.stack.service_user), out of reach of every process of `uid`; a program
    started by exec keeps no saved user, so the kernel and the workers cannot become it."""
    for folder in writable:
        for place, dirs, files in os.walk(folder):
            for name in [place, *(os.path.join(place, entry) for entry in dirs + files)]:
                os.lchown(name, uid, uid)
    hard = resource.getrlimit(resource.RLIMIT_NPROC)[1]
    limit = PROCESSES if hard == resource.RLIM_INFINITY else min(PROCESSES, hard)
    resource.setrlimit(resource.RLIMIT_NPROC, (limit, limit))
    saved = service_uid or uid
    os.setgroups([])
    os.setresgid(uid, uid, saved)
    os.setresuid(uid, uid, saved)


def seal() -> None:
    """No privilege gained by exec from now on, and no process of the same user may read this one's memory or fds."""
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
    _check(_libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))


def confine(spec: JobSpec, own: Path, writable: list[Path], blank: list[str], lessons_dir: Path) -> dict:
    """Apply every part the machine allows (`lessons_dir`: the course's, kept readable); returns
    {"given": [...], "missing": [...]}."""
    given, missing = [], []

    def attempt(name: str, action) -> bool:
        try:
            action()
        except (OSError, ValueError, AttributeError) as error:
            missing.append(f"{name} ({getattr(error, 'strerror', None) or error})")
            return False
        given.append(name)
        return True

    sockets = socket_folders()  # before the network namespace hides them from /proc/net/unix
    attempt("rlimits", lambda: rlimits(spec.cpu_seconds or 3600))
    attempt("memory_total", lambda: job_cgroup.enter(int(spec.memory_total or JOB_MEMORY)))
    attempt("network", private_network)
    attempt("mounts", lambda: private_mounts(own, spec.hide, blank, lessons_dir, sockets))
    if os.geteuid() == 0 and spec.uid:
        attempt("user", lambda: job_user(int(spec.uid), writable, spec.service_uid))
    else:
        missing.append("user (needs root)")
    attempt("sealed", seal)
    return {"given": given, "missing": missing}
