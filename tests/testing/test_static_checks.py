"""ruff (imports sorted, pyflakes, pycodestyle, bugbear) and mypy on src/ pass, with pyproject.toml's configuration."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
LINTED = ["src", "tests", "benchmarks", "run.py"]


def run(tool: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / tool), *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing():
    done = run("ruff", "check", "--no-fix", "--output-format", "concise", *LINTED)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_ruff_checks_the_families_the_project_asked_for(tmp_path):
    """The configuration is in force: an unsorted import, an unused one and a mutable default are each found."""
    sample = tmp_path / "sample.py"
    sample.write_text("import sys\nimport os\n\n\ndef f(x=[]):\n    return x\n")
    done = subprocess.run([str(BIN / "ruff"), "check", "--no-fix", "--no-cache", "--output-format", "concise",
                           "--config", str(ROOT / "pyproject.toml"), str(sample)], capture_output=True, text=True)
    assert {"I001", "F401", "B006"} <= {word for line in done.stdout.splitlines() for word in line.split()}, done.stdout


def test_mypy_finds_nothing_in_src():
    done = run("mypy")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
