"""Grading intake on huge and hostile notebooks: how long `from_bytes` takes to refuse 50,000 cells, to find a duplicate
id at the limit, and to refuse the attacks of issue 46 (an unterminated 256 KiB string, 4 MiB of ``{}``).

Run by hand: ``.venv/bin/python benchmarks/intake.py [--repeats N]``. Target: well under a second each
(a quadratic duplicate-id scan once stalled a batch on such files). Prints the median and the best of N.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import nbformat

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests" / "checks" / "fixtures")]

import notebooks  # noqa: E402
from celerylab.grader.intake import read  # noqa: E402
from celerylab.grader.submission import MAX_CELLS, Rejected, from_bytes  # noqa: E402


def notebook_with(count: int, twin_at_end: bool = False) -> str:
    data = json.loads(nbformat.writes(notebooks.build("pt", "exercises")))
    data["cells"] += [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "source": "", "outputs": [],
                       "execution_count": None} for i in range(count)]
    if twin_at_end:
        data["cells"][-1]["id"] = data["cells"][-2]["id"]
    return json.dumps(data)


def seconds_to_refuse(path: Path) -> tuple[float, str]:
    started = time.perf_counter()
    try:
        from_bytes(read(path, path.parent), path, "k")
        key = "accepted"
    except Rejected as rejected:
        key = rejected.key
    return time.perf_counter() - started, key


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    cases = {"50,000 cells": notebook_with(50_000), f"{MAX_CELLS - 10} cells, last id twice": notebook_with(MAX_CELLS - 10, True),
             "unterminated 256 KiB string": '{"metadata": {"x": "' + '\\"' * (128 * 1024),
             "4 MiB of {} in metadata": notebook_with(0).replace('"metadata": {', '"metadata": {"x": [' + ",".join(["{}"] * 2**21) + '], ', 1)}
    with tempfile.TemporaryDirectory() as folder:
        for name, text in cases.items():
            path = Path(folder) / "huge.ipynb"
            path.write_text(text)
            runs = [seconds_to_refuse(path) for _ in range(args.repeats)]
            times = [seconds for seconds, _ in runs]
            print(f"{name:32} {runs[0][1]:32} median {statistics.median(times):.3f} s  best {min(times):.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
