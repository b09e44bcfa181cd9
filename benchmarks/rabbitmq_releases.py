"""How long a private RabbitMQ node takes to start, per release: the system's and each Debian root's under bwrap.

Run by hand: ``.venv/bin/python benchmarks/rabbitmq_releases.py [rounds]`` (roots built first:
``.ci/setup-rabbitmq-releases``; building them took 175-207 s each, the three in parallel, on a 2-core machine shared
with other work). Interleaved (one node of each kind per round), so load slows them alike; "start" is
``RabbitNode.start()`` returning (the node logged ``Server startup complete``), "stop" is ``stop()`` returning (the
process group gone, the folder removed). Figures are min / median / max over the rounds.

Measured 2026-12-06, 3 rounds, 2 cores shared with other work (load average 14-17), min / median / max:

     system (3.10.8): start  8.4 / 11.2 / 31.2 s   stop 1.3 / 1.4 / 1.5 s
    3.10 (3.10.8):    start 11.4 / 17.2 / 17.3 s   stop 1.6 / 2.2 / 2.3 s
    4.0 (4.0.5):      start  4.7 / 10.6 / 13.0 s   stop 1.3 / 1.9 / 2.3 s
    4.3 (4.3.6):      start 10.6 / 11.1 / 11.7 s   stop 1.3 / 1.4 / 1.8 s

Single starts earlier the same day, under lighter load: system 10.1 s, 3.10 10.2 s, 4.0 3.6 s, 4.3 2.3-5.7 s
(RabbitMQ 3.10 logs a longer boot than 4.x; bwrap itself adds no visible cost).
"""
from __future__ import annotations

import statistics
import sys
import time

from celerylab.stack import rabbitmq_node, rabbitmq_roots
from celerylab.stack.rabbitmq_node import RabbitNode


def once(release: str | None) -> tuple[float, float]:
    node = RabbitNode(release=release)
    started = time.perf_counter()
    try:
        node.start()
        ready = time.perf_counter() - started
    finally:
        stopping = time.perf_counter()
        node.stop()
    return ready, time.perf_counter() - stopping


def spread(values: list[float]) -> str:
    return f"{min(values):5.1f} / {statistics.median(values):5.1f} / {max(values):5.1f} s"


def main(rounds: int = 5) -> None:
    kinds: list[str | None] = [None, *(line for line in rabbitmq_roots.RELEASES if not rabbitmq_node.missing(line))]
    starts: dict[str | None, list[float]] = {kind: [] for kind in kinds}
    stops: dict[str | None, list[float]] = {kind: [] for kind in kinds}
    for _ in range(rounds):
        for kind in kinds:
            ready, stopped = once(kind)
            starts[kind].append(ready)
            stops[kind].append(stopped)
    for kind in kinds:
        name = "system" if kind is None else kind
        print(f"{name:>7}: start {spread(starts[kind])}   stop {spread(stops[kind])}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
