"""A grading job's memory cgroup: one cap on everything the job starts together, then nothing of it left behind."""
from __future__ import annotations

import os
import signal
from pathlib import Path

from celerylab.polling import until

CGROUPS = Path("/sys/fs/cgroup")
PREFIX = "celerylab-job-"


def memory_hierarchy(proc_cgroup: str | None = None, mounts: Path = CGROUPS) -> tuple[Path, str]:
    """This process's memory cgroup folder and its hierarchy ("v1" or "v2"); OSError where there is none."""
    lines = proc_cgroup if proc_cgroup is not None else Path("/proc/self/cgroup").read_text(encoding="utf-8")
    for line in lines.splitlines():
        _, controllers, path = line.split(":", 2)
        if "memory" in controllers.split(",") and (mounts / "memory").is_dir():
            return mounts / "memory" / path.lstrip("/"), "v1"
    for line in lines.splitlines():
        number, controllers, path = line.split(":", 2)
        if number == "0" and controllers == "":
            available = mounts / "cgroup.controllers"
            if available.exists() and "memory" in available.read_text(encoding="utf-8").split():
                return mounts / path.lstrip("/"), "v2"
    raise OSError(2, "no memory cgroup controller")


def job_folder(pid: int) -> Path:
    """Where the cgroup of the job process `pid` lives (beside the grader's own: the job starts in it)."""
    return memory_hierarchy()[0] / f"{PREFIX}{pid}"


def enter(limit: int) -> None:
    """Move this process, and so everything it starts from now on, into a new cgroup capped at `limit` bytes.

    Past the cap the kernel's OOM killer ends a process of this job, never one of another job or the grader.
    """
    parent, version = memory_hierarchy()
    folder = parent / f"{PREFIX}{os.getpid()}"
    folder.mkdir()
    if version == "v1":
        (folder / "memory.limit_in_bytes").write_text(str(limit))
        swap = folder / "memory.memsw.limit_in_bytes"  # swap counted too, where the kernel accounts it
        if swap.exists():
            try:
                swap.write_text(str(limit))
            except OSError:
                pass
    else:
        (folder / "memory.max").write_text(str(limit))
        if (folder / "memory.swap.max").exists():
            (folder / "memory.swap.max").write_text("0")
    (folder / "cgroup.procs").write_text(str(os.getpid()))


def members(folder: Path) -> list[int]:
    try:
        return [int(pid) for pid in (folder / "cgroup.procs").read_text().split()]
    except OSError:
        return []


def release(pid: int, timeout: float = 10.0) -> None:
    """Kill whatever still runs in the job's cgroup (daemons that left its session too) and remove the cgroup."""
    try:
        folder = job_folder(pid)
    except OSError:
        return
    if not folder.is_dir():
        return

    def removed() -> bool:
        for member in members(folder):
            try:
                os.kill(member, signal.SIGKILL)
            except OSError:
                pass
        try:
            folder.rmdir()
            return True
        except OSError:  # the killed processes are being reaped
            return False

    until(removed, timeout, step=0.02)
