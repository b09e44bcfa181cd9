"""The owner's side of the orphan guard: one reaper process per owner, shared by all stacks."""
from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading
from pathlib import Path

_lock = threading.Lock()
_reaper: subprocess.Popen | None = None
_reaper_owner_pid: int | None = None


def _ensure() -> subprocess.Popen:
    global _reaper, _reaper_owner_pid
    if _reaper is None or _reaper.poll() is not None or _reaper_owner_pid != os.getpid():
        _reaper = subprocess.Popen(
            [sys.executable, "-I", str(Path(__file__).with_name("reaper.py"))],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, text=True, bufsize=1,
        )
        _reaper_owner_pid = os.getpid()
    return _reaper


def _send(line: str) -> None:
    with _lock:
        reaper = _ensure()
        try:
            reaper.stdin.write(line + "\n")
            reaper.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass


def watch(pgid: int) -> None:
    """Kill process group `pgid` if this process dies before calling forget()."""
    _send(f"+{pgid}")


def forget(pgid: int) -> None:
    _send(f"-{pgid}")


def watch_folder(path: str) -> None:
    """Remove folder `path` if this process dies before calling forget_folder()."""
    _send(f"+{os.path.abspath(path)}")


def forget_folder(path: str) -> None:
    _send(f"-{os.path.abspath(path)}")


@atexit.register
def _close() -> None:
    if _reaper is not None and _reaper_owner_pid == os.getpid() and _reaper.stdin:
        try:
            _reaper.stdin.close()
        except OSError:
            pass
