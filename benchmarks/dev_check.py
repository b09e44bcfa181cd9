"""`celerylab dev check` on the real course: how long the consistency check takes (target: under 20 s).

Run by hand: ``.venv/bin/python benchmarks/dev_check.py [--repeats N]``. Prints each run, the median and the best.
"""
from __future__ import annotations

import argparse
import statistics
import time

from celerylab.authoring.course_check import check_course


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    times = []
    for _ in range(args.repeats):
        started = time.perf_counter()
        report = check_course()
        times.append(time.perf_counter() - started)
        print(f"{times[-1]:.2f} s, {report.lessons} lessons, {report.exercises} exercises, {len(report.problems)} problems")
    print(f"median {statistics.median(times):.2f} s  best {min(times):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
