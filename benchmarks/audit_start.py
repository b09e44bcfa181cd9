"""How long the audit's rules take to import and register, in a fresh interpreter each time (run by hand).

    .venv/bin/python benchmarks/audit_start.py [runs]
"""
from __future__ import annotations

import statistics
import subprocess
import sys

PROBE = ("import time; t = time.perf_counter(); from celerylab.audit.registry import all_rules; all_rules(); "
         "print(time.perf_counter() - t)")


def once() -> float:
    return float(subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout)


def main(runs: int = 7) -> None:
    times = sorted(once() for _ in range(runs))
    print(f"rule import and registration: median {statistics.median(times):.3f} s, min {times[0]:.3f} s ({runs} runs)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
