"""What a test run starts, counted per test file: stacks, nodes, brokers, RabbitMQ nodes, PostgreSQL servers and
databases, subprocesses, sleeps and polls, with the seconds each start took (run by hand).

    rm -f /tmp/starts.log
    CELERYLAB_STARTS_LOG=/tmp/starts.log PYTHONPATH=benchmarks/stack_starts_site \\
        .venv/bin/python -m pytest src/celerylab/lessons -n 2 -q
    .venv/bin/python benchmarks/stack_starts.py /tmp/starts.log [--sleeps 20] [--file PART]

benchmarks/stack_starts_site/sitecustomize.py writes the log from every Python process of the run (the kernels nbval
starts and the checks' processes included); a line's test is $PYTEST_CURRENT_TEST where it was written (a kernel
carries the notebook cell it was started for).
"""
from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict

KINDS = ["stack", "node", "broker", "rabbitmq", "postgres", "database", "check", "experiment", "popen"]


def file_of(test: str) -> str:
    return test.split("::", 1)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--sleeps", type=int, default=20, help="the call sites that slept longest")
    parser.add_argument("--file", default="", help="only the files whose path holds this")
    args = parser.parse_args()
    records = [json.loads(line) for line in open(args.log, encoding="utf-8")]
    records = [r for r in records if args.file in r["test"]]
    counts: dict[str, Counter] = defaultdict(Counter)
    seconds: dict[str, Counter] = defaultdict(Counter)
    tests: dict[str, set] = defaultdict(set)
    for record in records:
        path = file_of(record["test"])
        tests[path].add(record["test"])
        counts[path][record["kind"]] += 1
        seconds[path][record["kind"]] += record.get("seconds", 0.0)
    print(f"{'file':60} tests " + " ".join(f"{kind:>14}" for kind in KINDS) + "   sleep s   poll s")
    for path in sorted(counts, key=lambda p: -seconds[p]["stack"] - seconds[p]["rabbitmq"]):
        cells = " ".join(f"{counts[path][k]:>4}/{seconds[path][k]:>7.1f}s" if k not in ("popen",)
                         else f"{counts[path][k]:>14}" for k in KINDS)
        print(f"{path[-60:]:60} {len(tests[path]):>5} {cells} {seconds[path]['sleep']:>9.1f} {seconds[path]['poll']:>8.1f}")
    sites: dict[tuple, list] = defaultdict(lambda: [0, 0.0])
    for record in records:
        if record["kind"] in ("sleep", "poll"):
            entry = sites[(record["kind"], record.get("where", "?"))]
            entry[0] += 1
            entry[1] += record.get("seconds", 0.0)
    print(f"\nsleeps and polls, the {args.sleeps} longest call sites (count, seconds):")
    for (kind, where), (count, total) in sorted(sites.items(), key=lambda e: -e[1][1])[:args.sleeps]:
        print(f"  {kind:5} {count:5} {total:8.1f}s  {where}")


if __name__ == "__main__":
    main()
