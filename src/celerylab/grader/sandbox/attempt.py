"""Each attempt of a grading job gets fresh folders: empty, made for the job's user, with only the answers copied in.

The grader never walks, follows or changes the owner of anything learner code wrote: from a finished
attempt it copies only each exercise's answer module (``ex_*.py``), a regular file opened without
following links, into the next attempt's new work folder. The lessons' checks are shown to the job
through copies only root may read (the job loads them before it becomes its own user).
"""
from __future__ import annotations

import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path

ANSWER_BYTES = 2 * 2**20  # an answer module larger than this is not carried to the next attempt
HOME_FOLDERS = ("ipython", "runtime")


@dataclass(frozen=True)
class Attempt:
    """One attempt's own folder (bound writable in the sandbox), its work folder and home."""

    own: Path
    work: Path
    home: Path


def fresh(folder: Path, number: int, uid: int | None) -> Attempt:
    """New, empty folders for attempt `number` under the job's `folder`, owned by the job's `uid` (as root)."""
    own = folder / f"attempt{number}"
    own.mkdir(mode=0o711)
    work, home = own / "work", own / "home"
    made = [work, home, *(home / name for name in HOME_FOLDERS)]
    for path in made:
        path.mkdir(mode=0o700)
        if uid is not None:
            os.chown(path, uid, uid)  # a folder just made by this process: nothing learner-written below it
    return Attempt(own, work, home)


def read_answer(work: Path, name: str) -> bytes | None:
    """The bytes of `work/name` if it is a regular file (never through a link) of a sane size, else None."""
    try:
        folder = os.open(work, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        handle = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
    except OSError:
        return None
    finally:
        os.close(folder)
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode) or info.st_size > ANSWER_BYTES:
            return None
        return os.read(handle, ANSWER_BYTES + 1)[:ANSWER_BYTES]
    except OSError:
        return None
    finally:
        os.close(handle)


def carry_answers(previous: Attempt, following: Attempt, modules: list[str], uid: int | None) -> list[str]:
    """Copy each answer module from the previous attempt's work folder to the next one's; returns those copied."""
    copied = []
    for module in modules:
        data = read_answer(previous.work, f"{module}.py")
        if data is None:
            continue
        target = following.work / f"{module}.py"
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
        if uid is not None:
            os.chown(target, uid, uid)
        copied.append(module)
    return copied


def private_checks(folder: Path, checks: list[Path]) -> dict[str, str]:
    """Root-only copies of the lessons' checks (made once per job), each to be bound over its original:
    {original: copy}. The job reads them as root, before it becomes its own user, which cannot."""
    place = folder / "checks"
    place.mkdir(mode=0o700, exist_ok=True)
    over = {}
    for number, path in enumerate(sorted(set(checks))):
        copy = place / f"{number}.py"
        if not copy.exists():
            shutil.copyfile(path, copy)
            copy.chmod(0o600)
        over[str(path)] = str(copy)
    return over
