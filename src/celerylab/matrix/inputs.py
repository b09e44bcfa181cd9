"""What a release's observations of one lesson's claims depend on, as one digest recorded beside them.

Hashed, each file by its label and bytes (CRLF read as LF):

1. the lesson's claim tests (test_claims_*.py) and its conftest.py;
2. every celerylab module they reach (celerylab.compiler.imports.reached: the lesson's own modules, the stack, ...),
   and those the claim plugins run_claims loads reach, but the matrix's own (they compare and write observations,
   they measure nothing);
3. the lesson folder's data files (.yml/.yaml/.json/.txt) but the ones no test reads for a measure (its page,
   claims.yml, observed.json, glossary and exercises);
4. the release's pins: the course's dependencies with the release's Celery and kombu, and the constraints.txt pins of
   the packages those install.

Not hashed: the tool's message catalogs (an observation is a measured value, not a sentence), the Python version.
"""
from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from celerylab.compiler.imports import PACKAGE, package_of, parse_python, reached, referenced
from celerylab.matrix import environments
from celerylab.matrix.releases import Release

FORMAT = "1"  # bump when what is hashed changes, so every recorded digest reads as stale
CLAIM_PLUGINS = ("celerylab.testing.plugin", "celerylab.testing.claims")
DATA_SUFFIXES = {".yml", ".yaml", ".json", ".txt"}
NOT_MEASURED = {"claims.yml", "observed.json", "glossary.yml", "exercises.yml"}


def claim_sources(folder: Path) -> list[Path]:
    """The lesson's claim test files and its conftest.py."""
    return sorted(path for path in folder.glob("*.py") if path.name.startswith("test_claims_") or path.name == "conftest.py")


def lesson_data(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*") if path.is_file() and path.suffix in DATA_SUFFIXES
                  and path.name not in NOT_MEASURED and "wrong_answers" not in path.relative_to(folder).parts)


def _package_of(path: Path, package: Path) -> str:
    return package_of(path, package) if package in path.parents else ""


def modules(folder: Path, package: Path = PACKAGE) -> list[Path]:
    """The celerylab module files the claim tests (and the claim plugins) reach."""
    names = set(CLAIM_PLUGINS)
    for path in claim_sources(folder):
        for tree in parse_python(path.read_text(encoding="utf-8")):
            names |= referenced(tree, _package_of(path, package))
    return reached(names, package, outside=package / "matrix")


def files(folder: Path, package: Path = PACKAGE) -> list[Path]:
    """Every file hashed for the lesson in `folder`, once each, in a stable order."""
    return sorted({*claim_sources(folder), *lesson_data(folder), *modules(folder, package)})


def _name(requirement: str) -> str:
    return environments.project_name(requirement)


def installed_by(requirements: list[str]) -> set[str]:
    """The project names `requirements` install, their dependencies followed through this interpreter's metadata
    (extras as asked; a dependency behind a platform marker counts wherever it is listed)."""
    from packaging.requirements import Requirement

    seen: set[tuple[str, frozenset[str]]] = set()
    pending = [Requirement(text) for text in requirements]
    while pending:
        wanted = pending.pop()
        key = (_name(wanted.name), frozenset(wanted.extras))
        if key in seen:
            continue
        seen.add(key)
        try:
            declared = metadata.requires(wanted.name) or []
        except metadata.PackageNotFoundError:
            continue
        for text in declared:
            needed = Requirement(text)
            if needed.marker is None or "extra" not in str(needed.marker) \
                    or any(needed.marker.evaluate({"extra": extra}) for extra in wanted.extras):
                pending.append(needed)
    return {name for name, _ in seen}


@lru_cache(maxsize=None)
def pins(release: Release) -> tuple[str, ...]:
    """The release's requirements, then the constraints.txt pins of what they install."""
    wanted = environments.requirements(release)
    names = installed_by([re.sub(r"\s*;.*", "", text) for text in wanted])
    pinned = [line for line in environments.constraints(release).splitlines()
              if "==" in line and _name(line.split("==")[0]) in names]
    return (*wanted, *sorted(pinned))


def label(path: Path, folder: Path, package: Path) -> str:
    if folder in path.parents:
        return f"lesson/{path.relative_to(folder).as_posix()}"
    return f"package/{path.relative_to(package).as_posix()}"


def digest(folder: Path, release: Release, package: Path = PACKAGE) -> str:
    """sha256 over the format, the release's pins and every file `files` lists (its first 16 hex digits)."""
    folder = folder.resolve()
    hashed = hashlib.sha256(f"celerylab-observed:{FORMAT}\n".encode())
    hashed.update("\n".join(pins(release)).encode() + b"\n")
    for path in files(folder, package):
        content = path.read_bytes().replace(b"\r\n", b"\n")
        hashed.update(f"{label(path, folder, package)}\0{len(content)}\0".encode())
        hashed.update(content)
    return hashed.hexdigest()[:16]
