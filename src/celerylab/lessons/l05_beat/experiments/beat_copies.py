"""Stacks side by side, each with its Beats (standalone, or embedded in workers with -B): who sends the 1 s tick."""
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from celerylab.lessons.l05_beat import helpers
from celerylab.stack import Stack, WorkerSpec

WINDOW = 4.0  # seconds of sends counted


def worker_with_beat(n: int, schedule: str | None = None) -> WorkerSpec:
    """`celery worker -B -s FILE`: a worker that embeds a Beat, with that Beat's schedule file."""
    return WorkerSpec(pool="prefork", concurrency=2, extra_args=("-B", "-s", schedule or f"embedded{n}-schedule"))


CASES = {"1 Beat": dict(beats=1), "2 Beats": dict(beats=2), "3 Beats": dict(beats=3),
         "worker -B ×2": dict(workers=[worker_with_beat(1), worker_with_beat(2)]),
         "-B ×2 -s shared-schedule": dict(workers=[worker_with_beat(1, "shared-schedule")],
                                          later=[worker_with_beat(2, "shared-schedule")])}


@dataclass
class BeatCopies:
    stacks: dict[str, Stack]     # still running: the next cells read them, and close them
    t0: float
    t1: float                    # the window [t0, t1): the sends counted
    runs: dict[str, list[dict]]  # case -> each run of a tick sent in the window: who sent it ("beat2"), when


def start(options: dict) -> Stack:
    options = dict(options)
    later = options.pop("later", ())
    stack = helpers.start(**options)  # its own Redis, a prefork worker, the database, `beats=N` Beats
    for spec in later:  # once the first Beat has sent, so has written the shared file (the text below says why)
        helpers.add_once_sent(stack, spec)
    return stack


def beat_copies(cases: dict = CASES, window: float = WINDOW) -> BeatCopies:
    with ThreadPoolExecutor() as pool:  # the stacks start at the same time
        stacks = dict(zip(cases, pool.map(start, cases.values())))
    t0, t1 = helpers.wait_window(window, stacks.values())  # opened once every Beat has sent once
    return BeatCopies(stacks, t0, t1, {case: helpers.runs(stack, t0, t1) for case, stack in stacks.items()})
