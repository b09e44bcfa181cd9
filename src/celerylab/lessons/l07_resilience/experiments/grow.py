"""The leaking task sent `tasks` times, one after the other: the worker's resident memory after each."""
import time
from dataclasses import dataclass

from celerylab.lessons.l07_resilience import helpers
from celerylab.stack import Stack


@dataclass
class Growth:
    growth: list[float]  # MB above the start (main process + children), after each task
    children: int        # child processes that ran the tasks
    peak: float
    after: float         # MB above the start once the pool is whole again
    seconds: float       # for all the tasks


def grow(stack: Stack, tasks: int = 9, megabytes: int = 10) -> Growth:
    worker = stack.workers[0]
    worker.wait_pool_ready()
    base, started = worker.rss_total(), time.monotonic()
    growth, pids = [], []
    for _ in range(tasks):
        pids.append(stack.app.send_task("l07.leaky_report", (megabytes,)).get(timeout=30))  # returns its child's pid
        growth.append((worker.rss_total() - base) / helpers.MB)
    seconds = time.monotonic() - started
    worker.wait_pool_ready(timeout=15)
    return Growth(growth, len(set(pids)), max(growth), (worker.rss_total() - base) / helpers.MB, seconds)
