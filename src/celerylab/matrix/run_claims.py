"""Run every lesson's claim tests with one release's Python and read back what each claim observed."""
from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

from celerylab.matrix.environments import ROOT
from celerylab.matrix.releases import Release

LESSONS = ROOT / "src" / "celerylab" / "lessons"
PLUGINS = ("celerylab.testing.plugin", "celerylab.testing.claims")


def claim_files(lessons: list[str] | None = None) -> list[Path]:
    """Every lesson's test_claims_*.py (only `lessons`' when given), in course order of their folders."""
    folders = [LESSONS / name for name in lessons] if lessons else sorted(LESSONS.glob("l[0-9]*"))
    return [path for folder in folders for path in sorted(folder.glob("test_claims_*.py"))]


def command(python: Path, out: Path, files: list[Path], jobs: int, select: str | None = None) -> list[str]:
    plugins = [arg for name in PLUGINS for arg in ("-p", name)]
    parallel = ["-n", str(jobs), "--dist", "loadscope"] if jobs > 1 else ["-n", "0"]
    chosen = ["-k", select] if select else []
    return [str(python), "-m", "pytest", "-o", "addopts=", "-p", "no:cacheprovider", "-W", "ignore::pytest.PytestConfigWarning",
            *plugins, *parallel,
            "-q", "-rN", "--no-header", f"--claims-json={out}", *chosen, *map(str, files)]


def run(release: Release, python: Path, jobs: int = 2, lessons: list[str] | None = None,
        select: str | None = None, on_line=None) -> dict:
    """{"versions": ..., "claims": {claim id: {"outcome", "message", "observed"}}} of one release's run."""
    with tempfile.TemporaryDirectory(prefix=f"celerylab-matrix-{release.line}-") as folder:
        out = Path(folder) / "claims.json"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]),
                   PYTHONDONTWRITEBYTECODE="1")
        process = subprocess.Popen(command(python, out, claim_files(lessons), jobs, select), cwd=ROOT, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        tail: list[str] = []
        for line in process.stdout:
            tail = [*tail[-40:], line.rstrip()]
            if on_line:
                on_line(line.rstrip())
        process.wait()
        if not out.exists():
            raise RuntimeError("\n".join(tail))
        return json.loads(out.read_text(encoding="utf-8"))
