"""Two Beats opening one schedule file at the same instant: how often one or both die at start (lesson 05 cites it).

Run by hand: ``.venv/bin/python benchmarks/beat_shared_schedule.py [--starts N] [--dbm dbm.gnu]``. Each start runs two processes
that build Celery's own ``PersistentScheduler`` on one new file at the same moment (a barrier) and tick for 1.3 s
(sending is recorded, not published: no broker). Prints the dbm backend that wrote the file and how each start ended.
``--dbm`` makes the scheduler's shelf use one dbm module instead of the first this Python has (``dbm.gnu`` needs a
Python built with ``_gdbm``: Debian's ``python3-gdbm`` for ``/usr/bin/python3``, with the venv's site-packages on
``PYTHONPATH``).
"""
from __future__ import annotations

import argparse
import dbm
import importlib
import multiprocessing
import shelve
import tempfile
import time
from collections import Counter
from pathlib import Path

from celery import Celery
from celery.beat import PersistentScheduler

TICK_SECONDS = 1.0
RUN_SECONDS = 1.3


class RecordingScheduler(PersistentScheduler):
    """Celery's scheduler with its file, whose sends are counted instead of published."""

    sent = 0
    removed = None  # the error on which this Beat removed the file as corrupt and made a new one

    def apply_async(self, entry, producer=None, advance=True, **kwargs):
        self.sent += 1

    def _destroy_open_corrupted_schedule(self, exc):
        self.removed = type(exc).__name__
        return super()._destroy_open_corrupted_schedule(exc)


class ShelfOn:
    """`shelve.open` on one chosen dbm module: what PersistentScheduler calls as `persistence.open`."""

    def __init__(self, module: str):
        self.module = module

    def open(self, filename: str, writeback: bool = False) -> shelve.Shelf:
        return shelve.Shelf(importlib.import_module(self.module).open(filename, "c"), writeback=writeback)


def one_beat(path: str, barrier, results, module: str | None = None) -> None:
    if module:
        RecordingScheduler.persistence = ShelfOn(module)
    app = Celery("shared-schedule", broker="memory://")
    app.conf.update(timezone="UTC", beat_schedule={"tick": {"task": "tick", "schedule": TICK_SECONDS}})
    barrier.wait()
    try:
        scheduler = RecordingScheduler(app, schedule_filename=path, lazy=False)
        started = time.monotonic()
        while time.monotonic() - started < RUN_SECONDS:
            scheduler.tick()
            time.sleep(0.05)
        scheduler.close()
        results.put(("sent", scheduler.removed))
    except Exception as exc:  # the start or a tick failed: this Beat is dead
        results.put(("died", type(exc).__name__))


def one_start(folder: Path, module: str | None = None) -> tuple[tuple, str | None]:
    path = str(folder / "shared-schedule")
    barrier, results = multiprocessing.Barrier(2), multiprocessing.Queue()
    beats = [multiprocessing.Process(target=one_beat, args=(path, barrier, results, module)) for _ in range(2)]
    for beat in beats:
        beat.start()
    for beat in beats:
        beat.join()
    ends = tuple(sorted((results.get() for _ in beats), key=str))
    return ends, dbm.whichdb(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=40)
    parser.add_argument("--dbm", help="the dbm module the schedule's shelf uses (default: the first this Python has)")
    args = parser.parse_args()
    outcomes, backends, removals = Counter(), Counter(), Counter()
    with tempfile.TemporaryDirectory() as scratch:
        for n in range(args.starts):
            folder = Path(scratch, str(n))
            folder.mkdir()
            ends, backend = one_start(folder, args.dbm)
            outcomes[sum(end == "sent" for end, _ in ends)] += 1
            backends[backend] += 1
            removals.update(detail for end, detail in ends if end == "sent" and detail)
            print(f"start {n + 1}: {ends}", flush=True)
    print(f"dbm backend of the schedule file: {dict(backends)}")
    for alive in (2, 1, 0):
        print(f"{alive} of 2 Beats alive: {outcomes[alive]} of {args.starts} starts")
    print(f"live Beats that removed the file as corrupt and made a new one, by error: {dict(removals)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
