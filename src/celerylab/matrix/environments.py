"""One cached virtual environment per release line: the course's pins, with that line's Celery and kombu."""
from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tomllib
import venv
from contextlib import contextmanager
from pathlib import Path

from celerylab.matrix.releases import RELEASE_DECIDES, Release

ROOT = Path(__file__).resolve().parents[3]
CONSTRAINTS = ROOT / "constraints.txt"
PYPROJECT = ROOT / "pyproject.toml"
# What the claim tests need beyond the course's own dependencies.
TEST_REQUIREMENTS = ("pytest", "pytest-xdist", "pytest-timeout")


class ReleaseEnvironmentError(RuntimeError):
    """pip could not build a release's environment (the message says which release and why)."""


def cache_root() -> Path:
    """$CELERYLAB_MATRIX_CACHE, else ~/.cache/celerylab/matrix: outside the checkout, so clean clones share it."""
    configured = os.environ.get("CELERYLAB_MATRIX_CACHE")
    return Path(configured) if configured else Path.home() / ".cache" / "celerylab" / "matrix"


def project_name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def requirements(release: Release) -> list[str]:
    """The course's dependencies and the test tools, with this release's Celery and kombu instead of the course's."""
    declared = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["dependencies"]
    kept = [item for item in declared if project_name(item) not in RELEASE_DECIDES]
    return [*kept, *TEST_REQUIREMENTS, *release.pins()]


def constraints(release: Release) -> str:
    """constraints.txt without the pins the release line decides for itself."""
    lines = CONSTRAINTS.read_text(encoding="utf-8").splitlines() if CONSTRAINTS.exists() else []
    return "\n".join(line for line in lines if project_name(line.split("==")[0]) not in RELEASE_DECIDES) + "\n"


def fingerprint(release: Release) -> str:
    digest = hashlib.sha256(sys.version.encode())
    digest.update("\n".join(requirements(release)).encode())
    digest.update(constraints(release).encode())
    return digest.hexdigest()[:12]


def location(release: Release) -> Path:
    return cache_root() / f"celery-{release.line}-{fingerprint(release)}"


def python_of(folder: Path) -> Path:
    return folder / "bin" / "python"


@contextmanager
def _building_lock(folder: Path):
    """One builder per environment at a time, across processes: the others wait, then use what it built."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.with_name(f".{folder.name}.lock"), "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _is_complete(folder: Path) -> bool:
    return python_of(folder).exists() and (folder / ".complete").exists()


def ensure(release: Release, log=None) -> Path:
    """The python of this release's environment, built first if the cache has none for these pins.

    Two runs at once (two checkouts, a suite beside `celerylab matrix`) build it once: the second waits on the
    lock and uses the first one's; a build never replaces an environment another run may be using.
    """
    if release.is_installed():
        return Path(sys.executable)
    folder = location(release)
    if _is_complete(folder):
        return python_of(folder)
    with _building_lock(folder):
        if not _is_complete(folder):
            building = folder.with_name(f".{folder.name}.{os.getpid()}")
            shutil.rmtree(building, ignore_errors=True)
            _build(release, building)
            shutil.rmtree(folder, ignore_errors=True)  # an incomplete leftover of a build that died
            building.rename(folder)  # venv scripts name their folder: the python binary itself does not care
    return python_of(folder)


def _build(release: Release, building: Path) -> None:
    """A fresh virtualenv in `building` with this release's pins installed, marked complete."""
    venv.EnvBuilder(with_pip=True, clear=True).create(building)
    pinned = building / "constraints.txt"
    pinned.write_text(constraints(release), encoding="utf-8")
    command = [str(python_of(building)), "-m", "pip", "install", "-q", "--disable-pip-version-check",
               "-c", str(pinned), *requirements(release)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        shutil.rmtree(building, ignore_errors=True)
        raise ReleaseEnvironmentError(f"{release.line}: {(done.stderr or done.stdout).strip().splitlines()[-1:]}")
    (building / ".complete").write_text(" ".join(release.pins()) + "\n", encoding="utf-8")
