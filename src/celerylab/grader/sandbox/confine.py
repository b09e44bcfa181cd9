"""Inside the job's bubblewrap sandbox: become the job's own user, seal the process, and check what holds.

Called by the job process on itself, before any learner code runs; everything it starts (the kernel,
the stacks, their workers) inherits it. The namespaces, the root and the capabilities come from bwrap
(sandbox/bwrap.py), the memory cgroup and rlimits from the launcher (sandbox/launch.py); `confine`
observes each of them from inside instead of trusting that they were asked for, and names every part
that does not hold in `missing` (the supervisor then refuses the job's verdicts: job_supervisor.closed).
"""
from __future__ import annotations

import ctypes
import os
import resource
import socket
from pathlib import Path
from typing import TYPE_CHECKING

from celerylab.grader.sandbox import job_cgroup
from celerylab.grader.sandbox.processes import JOB_UIDS

if TYPE_CHECKING:
    from celerylab.grader.spec import JobSpec

PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS, PR_GET_NO_NEW_PRIVS = 4, 38, 39
LIMITS = {"memory": (resource.RLIMIT_AS, 4 * 2**30), "file_size": (resource.RLIMIT_FSIZE, 512 * 2**20),
          "core": (resource.RLIMIT_CORE, 0)}
PROCESSES = 512  # per job user (threads count too): a fork bomb stops here
JOB_MEMORY = 3 * 2**30  # the whole job (kernel, stacks, workers, checks) in one memory cgroup
NEEDS_ROOT = " (needs root)"  # a part this machine cannot give without root: reported, not a failure

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int) -> None:
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))


def rlimits(cpu_seconds: float) -> None:
    """Per process: address space, file size, no core files, CPU seconds (the job's whole budget)."""
    for kind, value in [*LIMITS.values(), (resource.RLIMIT_CPU, max(1, int(cpu_seconds)))]:
        hard = resource.getrlimit(kind)[1]
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(kind, (value, value))


def job_user(uid: int, service_uid: int | None = None) -> None:
    """Become `uid` (a user only this job has); leaving root drops every capability. Its folders were made
    for it, empty, by the supervisor: nothing here walks or changes the owner of what learner code wrote.

    With `service_uid`, that second user stays this process's saved user: the stack's services (the course
    fakes) start as it (celerylab.stack.service_user), out of reach of every process of `uid`; a program
    started by exec keeps no saved user, so the kernel and the workers cannot become it."""
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


def capabilities() -> int:
    """This process's permitted, effective and ambient capabilities together, as a bit mask (what exec keeps)."""
    held = 0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(("CapPrm:", "CapEff:", "CapAmb:")):
            held |= int(line.split()[1], 16)
    return held


OBSERVED = {  # each part of the sandbox, as seen from inside it
    "pid_namespace": lambda: b"bwrap" in Path("/proc/1/cmdline").read_bytes(),
    "network": lambda: [name for _, name in socket.if_nameindex()] == ["lo"],
    "memory_total": lambda: job_cgroup.PREFIX in Path("/proc/self/cgroup").read_text(),
    "rlimits": lambda: resource.getrlimit(resource.RLIMIT_CPU)[0] != resource.RLIM_INFINITY,
    "user": lambda: min(os.getresuid() + os.getresgid()) >= JOB_UIDS and os.getgroups() == [],
    "no_capabilities": lambda: capabilities() == 0,
    "sealed": lambda: _libc.prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1,
}


def confine(spec: JobSpec) -> dict:
    """Become the job's user (as root), seal, then observe every part; returns {"given": [...], "missing": [...]}."""
    root, missing = os.geteuid() == 0, []
    try:
        if root and spec.uid:
            job_user(int(spec.uid), spec.service_uid)
        seal()
    except OSError as error:
        missing.append(f"set-up ({error.strerror or error})")
    given = []
    for name, holds in OBSERVED.items():
        try:
            held = bool(holds())
        except (OSError, ValueError) as error:
            held, name = False, f"{name} ({error.strerror if isinstance(error, OSError) else error})"
        if held:
            given.append(name)
        elif not root and name in ("memory_total", "user"):
            missing.append(name + NEEDS_ROOT)
        else:
            missing.append(name)
    return {"given": given, "missing": missing}


def failed_parts(confinement: dict | None) -> list[str]:
    """The parts of a job's confinement that failed where the machine supports them (fail closed on any)."""
    if not confinement:
        return ["all"]
    return [part for part in confinement.get("missing", ["all"]) if not str(part).endswith(NEEDS_ROOT)]
