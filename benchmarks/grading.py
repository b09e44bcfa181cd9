"""Grading overhead: the same submissions run by bare `pytest --nbval-lax`, then `grade --jobs 1` and `--jobs 2`.

Run by hand: ``.venv/bin/python benchmarks/grading.py [--copies N]``. Uses the fixture course of the
checks and grader tests (tests/checks/fixtures), so it does not depend on the lessons being written.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "checks" / "fixtures"
sys.path[:0] = [str(FIXTURES), str(REPO / "tests" / "grader")]

import submissions  # noqa: E402

CASES = ["good_pt", "good_en", "partial", "unsolved", "hidden_fail", "deleted_reordered_checks"]
BIN = Path(sys.executable).parent
BARE = "pytest --nbval-lax (bare)"


def make_set(folder: Path, copies: int) -> Path:
    source = submissions.write_all(folder / "one", CASES)
    target = folder / "set"
    target.mkdir()
    for copy in range(copies):
        for path in source.glob("*.ipynb"):
            shutil.copy(path, target / f"{path.stem}_{copy}.ipynb")
    return target


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(argv: list[str], cwd: Path, env: dict) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds of the whole reaped process tree, exit code."""
    started, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started, children_cpu() - cpu, done.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=2, help="copies of each of the 6 fixture submissions")
    parser.add_argument("--rounds", type=int, default=1, help="repeat the three runs; medians are shown")
    args = parser.parse_args()
    env = {**os.environ, "CELERYLAB_COURSE_ROOT": str(FIXTURES / "course")}  # the bare run's kernels: check()
    runs: dict[str, list[tuple[float, float, int]]] = {}
    count = len(CASES) * args.copies
    for round_number in range(args.rounds):
        with tempfile.TemporaryDirectory(prefix="celerylab-bench-") as tmp:
            tmp = Path(tmp)
            bare = make_set(tmp / "bare", args.copies)
            runs.setdefault(BARE, []).append(timed(
                [str(BIN / "pytest"), "--nbval-lax", "-p", "no:cacheprovider", "-o", "addopts=", "-q",
                 "--rootdir", str(bare), str(bare)], bare, env))
            for jobs in (1, 2):
                graded = make_set(tmp / f"jobs{jobs}", args.copies)
                runs.setdefault(f"celerylab grade --jobs {jobs}", []).append(timed(
                    [str(BIN / "celerylab"), "grade", str(graded), "--out", str(tmp / f"out{jobs}"), "--jobs",
                     str(jobs), "--lessons-dir", str(FIXTURES / "course"), "--exercises", str(FIXTURES / "exercises")],
                    tmp, env))
    print(f"{count} submissions, {args.rounds} round(s), medians; {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}")
    base_wall, base_cpu = (statistics.median(r[i] for r in runs[BARE]) for i in (0, 1))
    print(f"| {'run':<28} | {'wall s':>7} | {'wall vs bare':>12} | {'CPU s':>6} | {'CPU vs bare':>11} | exit |")
    print(f"|{'-' * 30}|{'-' * 9}|{'-' * 14}|{'-' * 8}|{'-' * 13}|------|")
    for name, results in runs.items():
        wall, cpu = (statistics.median(r[i] for r in results) for i in (0, 1))
        code = max(r[2] for r in results)
        print(f"| {name:<28} | {wall:7.1f} | {100 * (wall / base_wall - 1):+11.1f}% | {cpu:6.1f} "
              f"| {100 * (cpu / base_cpu - 1):+10.1f}% | {code:>4} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
