"""The job's processes: adopt what the learner's code daemonized, kill what it left, reap the zombies."""
from __future__ import annotations

import ctypes
import os
import signal
import time

import psutil

PR_SET_CHILD_SUBREAPER = 36
JOB_UIDS = 3_000_000  # each job runs as a user of its own from here up (uids no account uses)


def become_subreaper() -> None:
    """Adopt orphaned descendants (a process the learner daemonized) so they can be found and killed."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def kill_descendants() -> int:
    """SIGKILL every descendant of this process (kernels, workers, strays); returns how many there were."""
    children = psutil.Process().children(recursive=True)
    for child in children:
        try:
            child.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(children, timeout=5)
    return len(children)


def reap() -> int:
    """Collect every exited child (adopted orphans included): zombies count against the job user's limit."""
    reaped = 0
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return reaped
        if pid == 0:
            return reaped
        reaped += 1


def clear_job_user(seconds: float = 10.0) -> int:
    """Kill every process of the job's own user but this one (what a re-forking cell or a fork bomb left,
    whoever its parent is now), then reap: learner code may cost its own cell, never the checks' room.
    Only when this process runs as a job user (as root, or as a person's uid, ``kill(-1)`` would reach
    far more than the job)."""
    killed = kill_descendants()
    uid = os.getuid()
    if uid < JOB_UIDS:
        reap()
        return killed
    left = others_of(uid)
    killed += len(left)
    deadline = time.monotonic() + seconds
    while left and time.monotonic() < deadline:
        os.kill(-1, signal.SIGKILL)  # every process this user may signal at once (a fork bomb cannot outrun it)
        reap()
        left = others_of(uid)
    reap()  # those that died during the last scan: as zombies they still count against the job user's limit
    return killed


def others_of(uid: int) -> list[int]:
    """Live processes of `uid` but this one (zombies are reaped, not killed). kill(-1) cannot say: it
    succeeds whenever any other process exists, signalled or not."""
    found = []
    for process in psutil.process_iter(["uids", "status"]):
        uids = process.info["uids"]
        if process.pid != os.getpid() and uids and uid in (uids.real, uids.saved) \
                and process.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(process.pid)
    return found
