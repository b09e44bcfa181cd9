"""Orphan guard: a tiny process that kills the stack's process groups when its owner dies.

The owner writes ``+PGID`` / ``-PGID`` lines (and ``+/path`` / ``-/path`` for a stack's
private folder) to the reaper's stdin. When stdin reaches EOF (the owner exited, was
interrupted to death or SIGKILLed), every registered process group gets SIGTERM, then
SIGKILL, every registered folder is removed, and the reaper exits. It is run as a plain
script (``python -I reaper.py``), importing nothing from the package, so it starts fast.
If the reaper itself dies first, the owner starts another and tells it everything again
(celerylab.stack.guard); only both dying at once escapes it.
"""
from __future__ import annotations

import os
import shutil
import signal
import sys
import time


def kill_groups(groups: set[int], grace: float = 1.0) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        alive = set()
        for pgid in groups:
            try:
                os.killpg(pgid, sig)
                alive.add(pgid)
            except (ProcessLookupError, PermissionError):
                pass
        if not alive or sig == signal.SIGKILL:
            return
        deadline = time.monotonic() + grace
        while alive and time.monotonic() < deadline:
            for pgid in list(alive):
                try:
                    os.killpg(pgid, 0)
                except (ProcessLookupError, PermissionError):
                    alive.discard(pgid)
            time.sleep(0.05)
        groups = alive


def shield_from_the_oom_killer() -> None:
    """Ask the kernel to pick another process when memory runs out (allowed for root; harmless otherwise)."""
    try:
        with open("/proc/self/oom_score_adj", "w") as stream:
            stream.write("-1000")
    except OSError:
        pass


def main() -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    shield_from_the_oom_killer()
    groups: set[int] = set()
    folders: set[str] = set()
    for line in sys.stdin:
        line = line.strip()
        if len(line) > 1 and line[0] in "+-":
            if line[1:].isdigit():
                (groups.add if line[0] == "+" else groups.discard)(int(line[1:]))
            elif line[1] == "/":
                (folders.add if line[0] == "+" else folders.discard)(line[1:])
    kill_groups(groups)
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
