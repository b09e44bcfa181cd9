"""Beats with celery-redbeat's scheduler on one stack: which one holds the lock, and which ones send."""
from dataclasses import dataclass

from celerylab.lessons.l05_beat import helpers
from celerylab.stack import Stack

WINDOW = 4.0  # seconds of sends counted


@dataclass
class RedbeatLock:
    stack: Stack         # still running: the next cells stop its Beats
    holder: object       # the Beat whose log says "beat: Acquired lock"
    t0: float
    t1: float            # the window [t0, t1): the sends counted
    beats_running: int
    runs: list[dict]     # each run of a tick sent in the window: who sent it, when
    senders: dict[str, int]  # who sent in the window -> how many sends


def redbeat_lock(beats: int = 3, settings: dict | None = None, window: float = WINDOW) -> RedbeatLock:
    # the stack's app sets beat_max_loop_interval = 1 and redbeat_lock_timeout = 5; `settings` override them
    stack = helpers.start(beats=beats, beat_scheduler="redbeat.RedBeatScheduler", settings=settings or {})
    holder = helpers.lock_holder(stack)  # RedBeat takes the lock in beat_init: "beat: Acquired lock"
    t0, t1 = helpers.wait_window(window)
    rows = helpers.runs(stack, t0, t1)
    return RedbeatLock(stack, holder, t0, t1, sum(beat.alive for beat in stack.beats), rows,
                       helpers.per_sender(rows))
