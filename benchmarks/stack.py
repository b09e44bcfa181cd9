"""Benchmark the live stack per broker kind: start to first result, task round trips, broker CPU per task.

Run by hand: ``.venv/bin/python benchmarks/stack.py [--url redis://127.0.0.1:6379/15]``.
The kinds run interleaved (one stack of each kind per round, `--repeats` rounds), so a
machine loaded by other work slows them alike. Prints the median and the best round of
each figure, with ratios to the system's redis-server. "broker CPU" is the CPU time the
broker process spent per task (user + system), which other load barely changes; there is
none for a Redis given by URL (not ours to measure).
"""
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import psutil

from celerylab.stack import Stack

APP = "celerylab.stack.smoke"
KINDS = ("redis-server", "packaged", "url", "embedded")
FIGURES = ("start", "seq", "pipe", "cpu_seq", "cpu_pipe")


def _cpu(process: psutil.Process | None) -> float:
    """CPU seconds of every thread of `process`: from schedstat (ns) on Linux, else psutil's ticks."""
    if process is None:
        return float("nan")
    tasks = Path(f"/proc/{process.pid}/task")
    if tasks.is_dir():
        return sum(int((task / "schedstat").read_text().split()[0]) for task in tasks.iterdir()) / 1e9
    times = process.cpu_times()
    return times.user + times.system


def measure_once(kind: str, url: str | None, sequential: int, pipelined: int) -> dict:
    began = time.perf_counter()
    with Stack.start(APP, broker_kind=kind, broker_url=url, timeline=False) as stack:
        stack.app.send_task("celerylab.smoke.ping").get(timeout=20)
        row = {"start": time.perf_counter() - began, "server": stack.broker.label}
        broker = psutil.Process(stack.broker.process.pid) if stack.broker.process else None
        cpu, began = _cpu(broker), time.perf_counter()
        for i in range(sequential):
            stack.app.send_task("celerylab.smoke.add", (i, i)).get(timeout=20)
        row["seq"] = (time.perf_counter() - began) / sequential * 1000
        row["cpu_seq"] = (_cpu(broker) - cpu) / sequential * 1000
        cpu, began = _cpu(broker), time.perf_counter()
        results = [stack.app.send_task("celerylab.smoke.add", (i, i)) for i in range(pipelined)]
        for result in results:
            result.get(timeout=60)
        row["pipe"] = (time.perf_counter() - began) / pipelined * 1000
        row["cpu_pipe"] = (_cpu(broker) - cpu) / pipelined * 1000
        return row


def summary(rounds: list[dict]) -> dict:
    row = {"server": rounds[0]["server"]}
    for figure in FIGURES:
        values = [r[figure] for r in rounds]
        row[figure], row[f"{figure}_best"] = statistics.median(values), min(values)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="redis://127.0.0.1:6379/15", help="the machine's Redis (kind 'url')")
    parser.add_argument("--sequential", type=int, default=50)
    parser.add_argument("--pipelined", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    runs: dict[str, list[dict]] = {kind: [] for kind in kinds}
    for _ in range(args.repeats):
        for kind in kinds:
            runs[kind].append(measure_once(kind, args.url if kind == "url" else None, args.sequential, args.pipelined))
    rows = {kind: summary(found) for kind, found in runs.items()}
    base = rows.get("redis-server") or next(iter(rows.values()))
    print("| broker | server | ready + 1st result s | seq ms/task (best) | x | pipelined ms/task (best) | x "
          "| broker CPU ms/task seq | pipelined |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kind, row in rows.items():
        print(f"| {kind} | {row['server']} | {row['start']:.2f} | {row['seq']:.2f} ({row['seq_best']:.2f}) "
              f"| {row['seq'] / base['seq']:.2f} | {row['pipe']:.2f} ({row['pipe_best']:.2f}) "
              f"| {row['pipe'] / base['pipe']:.2f} | {row['cpu_seq']:.2f} | {row['cpu_pipe']:.2f} |")
    print(f"(median of {args.repeats} interleaved rounds, best round in brackets; {args.sequential} sequential, "
          f"{args.pipelined} pipelined tasks; one solo worker with gossip, mingle and heartbeat off, task events on)")


if __name__ == "__main__":
    main()
