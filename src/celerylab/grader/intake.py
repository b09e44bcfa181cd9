"""Finding submission files and reading them safely: type and size checked before any open, one key per path."""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from celerylab.grader.names import safe_name
from celerylab.grader.submission import MAX_BYTES, Rejected, Submission, from_bytes

SUFFIX = ".ipynb"
KINDS = ((stat.S_ISDIR, "directory"), (stat.S_ISFIFO, "fifo"), (stat.S_ISCHR, "character device"),
         (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket"), (stat.S_ISLNK, "symlink"))


@dataclass(frozen=True)
class Found:
    """A submission as found: its path under the submissions folder (never resolved) and its unique key."""

    path: Path
    key: str
    file: str


def _found(path: Path, base: Path, taken: set[str]) -> Found:
    """`path` with a key no other entry of the batch has: its relative path without ``.ipynb`` (``_`` for a file
    named just ``.ipynb``), and a ``~N`` suffix when that key is taken (``_.ipynb`` beside ``.ipynb``). Key and
    file name are escaped (names.safe_name: a byte that is not UTF-8, a control character), never the path."""
    relative = path.relative_to(base) if path != base else Path(path.name)
    shown = safe_name(relative.as_posix())  # the real path stays in `path`; names written or printed are safe
    key = shown[: -len(SUFFIX)] or "_"
    unique, number = key, 1
    while unique in taken:
        number += 1
        unique = f"{key}~{number}"
    taken.add(unique)
    return Found(path, unique, shown)


def find(where: Path) -> Iterator[Found]:
    """Every `*.ipynb` entry under `where`, of any type, in a stable order; symlinked folders are not entered.

    Keys are the relative paths as found, made unique, so two entries never share one, whatever they point to.
    """
    where = Path(os.path.abspath(where))
    taken: set[str] = set()
    if not where.is_dir():
        yield _found(where, where.parent, taken)
        return
    for folder, dirs, files in os.walk(where, followlinks=False):
        dirs.sort()
        named = sorted(name for name in dirs + files if name.endswith(SUFFIX))
        dirs[:] = [name for name in dirs if name != ".ipynb_checkpoints" and not name.endswith(SUFFIX)]
        for name in named:
            yield _found(Path(folder) / name, where, taken)


def kind(mode: int) -> str:
    return next((name for test, name in KINDS if test(mode)), "special file")


def read(path: Path, base: Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file under `base` (a symlink must stay inside it); Rejected otherwise.

    Nothing is opened before its type and size are known, and the opened file must be the one checked.
    """
    try:
        info = os.lstat(path)
        target = path
        if stat.S_ISLNK(info.st_mode):
            try:
                target = Path(os.path.realpath(path, strict=True))
            except OSError as error:
                raise Rejected("grading.reason.bad_link", error=error.strerror or error) from None
            inside = Path(os.path.realpath(base))
            if inside != target and inside not in target.parents:
                raise Rejected("grading.reason.outside", target=target)
            info = os.stat(target)
        if not stat.S_ISREG(info.st_mode):
            raise Rejected("grading.reason.not_regular", kind=kind(info.st_mode))
        if info.st_size > limit:
            raise Rejected("grading.reason.too_large", size=info.st_size // 2**20, limit=limit // 2**20)
        handle = os.open(target, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except Rejected:
        raise
    except (OSError, ValueError) as error:
        raise Rejected("grading.reason.unreadable", error=error) from None
    try:
        opened = os.fstat(handle)
        if (opened.st_dev, opened.st_ino) != (info.st_dev, info.st_ino) or not stat.S_ISREG(opened.st_mode):
            raise Rejected("grading.reason.changed")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(handle, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise Rejected("grading.reason.too_large", size=size // 2**20, limit=limit // 2**20)
        return b"".join(chunks)
    except OSError as error:
        raise Rejected("grading.reason.unreadable", error=error) from None
    finally:
        os.close(handle)


def load(path: str | Path, base: str | Path | None = None) -> Submission:
    """Read (safely, see read) and validate one submission file; raises Rejected."""
    path = Path(path)
    base = Path(base) if base else path.parent
    raw = read(path, base)
    return from_bytes(raw, path, path.relative_to(base).with_suffix("").as_posix())
