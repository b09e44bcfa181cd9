"""Grading cost: the same submissions run by bare `pytest --nbval-lax`, then `grade --jobs 1` and `--jobs 2`.

Run by hand: ``.venv/bin/python benchmarks/grading.py [--copies N] [--phases]``. Uses the fixture course of the
checks and grader tests (tests/checks/fixtures), so it does not depend on the lessons being written.

Each run's CPU seconds are those of its whole process tree, read from a cpuacct cgroup of its own (as root on a
cgroup v1 machine): the grading jobs leave the grader's process tree (bwrap, a pid namespace, a subreaper that is
killed), so the CPU of the processes the grader reaps is only a lower bound (marked ``≥``). On a busy machine wall
seconds grow with the load; CPU seconds barely do. ``--phases`` grades one submission in this process and says
when each of the job's steps ended, from the records the job sends as it goes (and the batch's probe, once).
"""
from __future__ import annotations

import argparse
import contextlib
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
CPUACCT = Path("/sys/fs/cgroup/cpuacct")


def make_set(folder: Path, copies: int, cases: list[str]) -> Path:
    source = submissions.write_all(folder / "one", cases)
    target = folder / "set"
    target.mkdir()
    for copy in range(copies):
        for path in source.glob("*.ipynb"):
            shutil.copy(path, target / f"{path.stem}_{copy}.ipynb")
    return target


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@contextlib.contextmanager
def cpu_group():
    """A cpuacct cgroup of its own (None where there is none to make): what runs in it is counted whole."""
    folder = CPUACCT / f"celerylab-bench-{os.getpid()}"
    try:
        folder.mkdir()
    except OSError:
        yield None
        return
    try:
        yield folder
    finally:
        with contextlib.suppress(OSError):
            for pid in (folder / "cgroup.procs").read_text().split():
                (CPUACCT / "cgroup.procs").write_text(pid)
            folder.rmdir()


def timed(argv: list[str], cwd: Path, env: dict) -> tuple[float, float, bool, int]:
    """Wall seconds, CPU seconds of the whole process tree, whether that CPU is exact, exit code."""
    with cpu_group() as group:
        enter = None if group is None else lambda: (group / "cgroup.procs").write_text(str(os.getpid()))
        started, cpu = time.perf_counter(), children_cpu()
        done = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              preexec_fn=enter)
        wall = time.perf_counter() - started
        if group is not None:
            return wall, int((group / "cpuacct.usage").read_text()) / 1e9, True, done.returncode
        return wall, children_cpu() - cpu, False, done.returncode


def phases(tmp: Path, case: str) -> list[tuple[str, float]]:
    """Grade one submission here, noting when the job's records arrive: [(step, seconds it took)]."""
    from celerylab.cli import main as cli
    from celerylab.grader import job_launch

    marks: list[tuple[str, float]] = []
    reader, launcher = job_launch.read_results, job_launch.launch

    def read_results(stream, records, seen=None):
        def noted(record):
            kind = record.get("kind")
            marks.append((f"{kind} {record.get('exercise') or ''}".strip(), time.perf_counter()))
            if seen is not None:
                seen(record)
        return reader(stream, records, noted)

    def launch(*args, **kwargs):
        marks.append(("launch", time.perf_counter()))
        try:
            return launcher(*args, **kwargs)
        finally:
            marks.append(("ended", time.perf_counter()))

    source = submissions.write_all(tmp / "phases", [case])
    job_launch.read_results, job_launch.launch = read_results, launch
    from celerylab.grader import job_supervisor

    supervisor_launch, job_supervisor.launch = job_supervisor.launch, launch
    started = time.perf_counter()
    try:
        cli(["grade", str(source), "--out", str(tmp / "phases-out"), "--jobs", "1", "--lessons-dir",
             str(FIXTURES / "course"), "--exercises", str(FIXTURES / "exercises")])
    finally:
        job_launch.read_results, job_launch.launch = reader, launcher
        job_supervisor.launch = supervisor_launch
    marks.append(("gradebook written", time.perf_counter()))
    names = {"launch": "start of the next job", "confinement": "launcher, bwrap, job imports, confined",
             "probe": "probe: imports, database started and stopped", "execution": "notebook executed (kernel)",
             "ended": "job exited, its processes and cgroup gone"}
    steps, last, probing = [], started, True
    for name, at in marks:
        kind, _, exercise = name.partition(" ")
        label = f"check {exercise} (start to verdict)" if kind == "verdict" else names.get(kind, name)
        if kind == "start":
            continue
        if probing and kind in ("launch", "confinement", "ended"):
            label = f"probe: {label}"
        if kind == "ended" and probing:
            probing = False
        steps.append((label, at - last))
        last = at
    return steps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=2, help="copies of each of the 6 fixture submissions")
    parser.add_argument("--rounds", type=int, default=1, help="repeat the runs; medians are shown")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="the --jobs values to run")
    parser.add_argument("--no-bare", action="store_true", help="skip the bare pytest --nbval-lax run")
    parser.add_argument("--phases", action="store_true", help="also: where one good submission's time goes")
    args = parser.parse_args()
    env = {**os.environ, "CELERYLAB_COURSE_ROOT": str(FIXTURES / "course")}  # the bare run's kernels: check()
    runs: dict[str, list[tuple[float, float, bool, int]]] = {}
    count = len(CASES) * args.copies
    steps: list[list[tuple[str, float]]] = []
    load = os.getloadavg()[0]
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory(prefix="celerylab-bench-") as tmp:
            tmp = Path(tmp)
            if not args.no_bare:
                bare = make_set(tmp / "bare", args.copies, CASES)
                runs.setdefault(BARE, []).append(timed(
                    [str(BIN / "pytest"), "--nbval-lax", "-p", "no:cacheprovider", "-o", "addopts=", "-q",
                     "--rootdir", str(bare), str(bare)], bare, env))
            for jobs in args.jobs:
                graded = make_set(tmp / f"jobs{jobs}", args.copies, CASES)
                runs.setdefault(f"celerylab grade --jobs {jobs}", []).append(timed(
                    [str(BIN / "celerylab"), "grade", str(graded), "--out", str(tmp / f"out{jobs}"), "--jobs",
                     str(jobs), "--lessons-dir", str(FIXTURES / "course"), "--exercises", str(FIXTURES / "exercises")],
                    tmp, env))
            if args.phases:
                steps.append(phases(tmp, "good_pt"))
    print(f"{count} submissions, {args.rounds} round(s), medians; {os.cpu_count()} cores, "
          f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    print(f"| {'run':<28} | {'wall s':>7} | {'CPU s':>7} | {'wall s/sub':>10} | {'CPU s/sub':>9} | exit |")
    print(f"|{'-' * 30}|{'-' * 9}|{'-' * 9}|{'-' * 12}|{'-' * 11}|------|")
    for name, results in runs.items():
        wall, cpu = (statistics.median(r[i] for r in results) for i in (0, 1))
        exact = "" if all(r[2] for r in results) else "≥"
        code = max(r[3] for r in results)
        print(f"| {name:<28} | {wall:7.1f} | {exact:>1}{cpu:6.1f} | {wall / count:10.2f} | {exact:>1}{cpu / count:8.2f} "
              f"| {code:>4} |")
    if steps:
        print("\nOne good submission graded alone (--jobs 1), the batch's probe included: wall seconds of each step")
        print(f"| {'step':<48} | {'wall s':>7} |")
        print(f"|{'-' * 50}|{'-' * 9}|")
        for index, (label, _) in enumerate(steps[0]):
            seconds = statistics.median(run[index][1] for run in steps if len(run) > index)
            print(f"| {label:<48} | {seconds:7.2f} |")
        print(f"| {'total':<48} | {statistics.median(sum(s for _, s in run) for run in steps):7.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
