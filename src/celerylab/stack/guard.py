"""The owner's side of the orphan guard: one reaper process per owner, shared by all stacks, respawned if it dies."""
from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading
from pathlib import Path

_lock = threading.RLock()
_reaper: subprocess.Popen | None = None
_reaper_owner_pid: int | None = None
_in_force: dict[str, None] = {}  # what the reaper must clean up, in registration order ("+pgid", "+/folder")
_closing = False


def _spawn() -> subprocess.Popen:
    reaper = subprocess.Popen(
        [sys.executable, "-I", str(Path(__file__).with_name("reaper.py"))],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True, text=True, bufsize=1,
    )
    for line in _in_force:  # a new reaper learns everything the one before it knew
        reaper.stdin.write(line + "\n")
    reaper.stdin.flush()
    threading.Thread(target=_respawn_when_dead, args=(reaper,), daemon=True, name="celerylab-reaper-watch").start()
    return reaper


def _respawn_when_dead(reaper: subprocess.Popen) -> None:
    """If the reaper dies while this owner lives (the OOM killer, a stray kill), start another at once."""
    reaper.wait()
    with _lock:
        if not _closing and _reaper is reaper and _reaper_owner_pid == os.getpid() and _in_force:
            _ensure()


def _ensure() -> subprocess.Popen:
    global _reaper, _reaper_owner_pid
    if _reaper is None or _reaper.poll() is not None or _reaper_owner_pid != os.getpid():
        if _reaper_owner_pid != os.getpid():
            _in_force.clear()  # a forked child does not inherit its parent's stacks
        _reaper = _spawn()
        _reaper_owner_pid = os.getpid()
    return _reaper


def _send(line: str) -> None:
    with _lock:
        if line[0] == "+":
            _in_force[line] = None
        else:
            _in_force.pop("+" + line[1:], None)
        reaper = _ensure()
        try:
            reaper.stdin.write(line + "\n")
            reaper.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass


def reaper_pid() -> int | None:
    """The pid of this owner's reaper, if it has one running."""
    with _lock:
        alive = _reaper is not None and _reaper.poll() is None and _reaper_owner_pid == os.getpid()
        return _reaper.pid if alive else None


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
    global _closing
    _closing = True
    if _reaper is not None and _reaper_owner_pid == os.getpid() and _reaper.stdin:
        try:
            _reaper.stdin.close()
        except OSError:
            pass
