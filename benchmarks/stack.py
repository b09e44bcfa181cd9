"""Benchmark the live stack per broker kind: start to first result, and task round trips.

Run by hand: ``.venv/bin/python benchmarks/stack.py [--url redis://127.0.0.1:6379/0]``.
Prints one table, with ratios to the private redis-server.
"""
from __future__ import annotations

import argparse
import statistics
import time

from celerylab.stack import Stack

APP = "celerylab.stack.smoke"


def measure(kind: str, url: str | None, sequential: int, pipelined: int, repeats: int) -> dict:
    starts, seq, pipe = [], [], []
    for _ in range(repeats):
        began = time.perf_counter()
        with Stack.start(APP, broker_kind=kind, broker_url=url, timeline=False) as stack:
            stack.app.send_task("celerylab.smoke.ping").get(timeout=20)
            starts.append(time.perf_counter() - began)
            began = time.perf_counter()
            for i in range(sequential):
                stack.app.send_task("celerylab.smoke.add", (i, i)).get(timeout=20)
            seq.append((time.perf_counter() - began) / sequential * 1000)
            began = time.perf_counter()
            results = [stack.app.send_task("celerylab.smoke.add", (i, i)) for i in range(pipelined)]
            for result in results:
                result.get(timeout=60)
            pipe.append((time.perf_counter() - began) / pipelined * 1000)
    return {"start": statistics.median(starts), "seq": statistics.median(seq), "pipe": statistics.median(pipe)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="redis://127.0.0.1:6379/0", help="the machine's Redis (kind 'url')")
    parser.add_argument("--sequential", type=int, default=50)
    parser.add_argument("--pipelined", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rows = {kind: measure(kind, args.url if kind == "url" else None, args.sequential, args.pipelined, args.repeats)
            for kind in ("redis-server", "embedded", "url")}
    base = rows["redis-server"]
    print(f"{'broker':<14}{'ready+1st result s':>20}{'seq ms/task':>14}{'x':>7}{'pipelined ms/task':>20}{'x':>7}")
    for kind, row in rows.items():
        print(f"{kind:<14}{row['start']:>20.2f}{row['seq']:>14.2f}{row['seq'] / base['seq']:>7.2f}"
              f"{row['pipe']:>20.2f}{row['pipe'] / base['pipe']:>7.2f}")
    print(f"(median of {args.repeats} runs; {args.sequential} sequential, {args.pipelined} pipelined tasks; "
          "one solo worker with gossip, mingle and heartbeat off, task events on)")


if __name__ == "__main__":
    main()
