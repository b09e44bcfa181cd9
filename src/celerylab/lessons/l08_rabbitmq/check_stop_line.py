"""Loaded by the workers of lesson 08's long report and poison checks (`celery worker -I`): right after the run log
gets the line a stop file next to it names (`runs.log.stop`, holding a line's label: `r:part`, `p1:start`), the
process that logged it stops itself (SIGSTOP), once; the check then kills the worker. Whatever the task does after
the line (mark a part done, send the next part, return so that the worker acknowledges the message, kill its own
process) does not happen first: a crash right after the line, a window no kill from outside can aim at (a check that
polls the log lands later, at load long after the task has moved on)."""
from __future__ import annotations

import os
import signal

from celerylab.lessons.l08_rabbitmq import tasks

STOP_SUFFIX = ".stop"


def stop_file() -> str:
    """The stop file of this worker's run log."""
    return os.environ["CELERYLAB_RUNS"] + STOP_SUFFIX


def stop_here(label: str) -> bool:
    """Whether the line just logged (`label`) is the one the stop file names; the file is taken (removed) by the one
    process that stops, so only the first such line stops."""
    try:
        with open(stop_file(), encoding="utf-8") as named:
            if named.read().strip() != label:
                return False
        os.unlink(stop_file())
    except FileNotFoundError:  # no stop asked, or another process took it first
        return False
    return True


def patch(module=tasks) -> None:
    """The app's tasks log through the module's `record` (looked up when they call it): wrap it, once."""
    original = module.record
    if getattr(original, "stops", False):
        return

    def record(label: str, *details: object) -> None:
        original(label, *details)
        if stop_here(label):
            os.kill(os.getpid(), signal.SIGSTOP)

    record.stops = True  # type: ignore[attr-defined]
    module.record = record


patch()
