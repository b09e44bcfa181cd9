"""The source digest stored in generated notebooks: lesson folder files + package versions, no execution."""
from __future__ import annotations

import hashlib
from importlib import metadata

from celerylab.compiler.model import Lesson

# Bump when the generated notebooks' shape changes, so every notebook reads as stale.
BUILD_FORMAT = "1"
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
                  if path.is_file() and path.suffix in HASHED_SUFFIXES and "__pycache__" not in path.parts)


def lesson_digest(lesson: Lesson) -> str:
    """sha256 over the build format, package versions, and each lesson file's relative path and bytes."""
    digest = hashlib.sha256(f"celerylab-build:{BUILD_FORMAT}\n".encode())
    for package in VERSIONED_PACKAGES:
        digest.update(f"{package}=={_version(package)}\n".encode())
    for path in lesson_files(lesson):
        content = path.read_bytes().replace(b"\r\n", b"\n")
        digest.update(f"{path.relative_to(lesson.folder).as_posix()}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()
