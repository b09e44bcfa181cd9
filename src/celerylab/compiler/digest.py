"""The source digest stored in generated notebooks: every file whose change can change an output.

What is hashed, each file by its relative path and bytes (CRLF read as LF):

1. the lesson folder: every .md/.py/.yml/.yaml/.json/.txt file (no __pycache__), but the files only its
   tests read (test_*.py, conftest.py, claims.yml, observed.json, the wrong answers under wrong_answers/:
   celerylab.compiler.imports.test_only);
2. every module of the celerylab package the lesson reaches (celerylab.compiler.imports):
   the imports of the lesson's .py files and of lesson.md's code cells, followed transitively
   through the package, lazy imports inside functions included, plus each module's parent
   packages (their __init__ runs on import), module names in strings (``"celerylab.fakes.webhook"``:
   modules a stack runs) and sibling scripts named in strings (``"reaper.py"``);
3. all the tool's message catalogs, src/celerylab/i18n/*.yml (what t() prints). The other lessons'
   messages.yml are not hashed: a lesson prints only its own keys;
4. the build format and the celerylab, celery and kombu versions.

Not followed: data files other than the catalogs, and third-party code beyond those versions.
"""
from __future__ import annotations

import hashlib
from importlib import metadata
from pathlib import Path

from celerylab.compiler.imports import PACKAGE, package_dependencies, test_only
from celerylab.compiler.model import Lesson

# Bump when the generated notebooks' shape changes, so every notebook reads as stale.
BUILD_FORMAT = "3"
HASHED_SUFFIXES = {".md", ".py", ".yml", ".yaml", ".json", ".txt"}
VERSIONED_PACKAGES = ("celerylab", "celery", "kombu")


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "-"


def lesson_files(lesson: Lesson) -> list:
    """Every text file of the lesson folder that can change what its notebooks show, in a stable order."""
    return sorted(path for path in lesson.folder.rglob("*")
                  if path.is_file() and path.suffix in HASHED_SUFFIXES and "__pycache__" not in path.parts
                  and not test_only(path))


def package_files(lesson: Lesson, package: Path = PACKAGE) -> list[Path]:
    """The package modules the lesson reaches, then the tool's message catalogs."""
    catalogs = sorted((package / "i18n").glob("*.yml"))
    return [*package_dependencies(lesson.folder, package), *catalogs]


def lesson_digest(lesson: Lesson, package: Path = PACKAGE) -> str:
    """sha256 over the build format, package versions, the lesson's files and the package files it uses."""
    digest = hashlib.sha256(f"celerylab-build:{BUILD_FORMAT}\n".encode())
    for name in VERSIONED_PACKAGES:
        digest.update(f"{name}=={_version(name)}\n".encode())
    named = [(f"lesson/{path.relative_to(lesson.folder).as_posix()}", path) for path in lesson_files(lesson)]
    named += [(f"package/{path.relative_to(package).as_posix()}", path) for path in package_files(lesson, package)]
    for label, path in named:
        content = path.read_bytes().replace(b"\r\n", b"\n")
        digest.update(f"{label}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()
