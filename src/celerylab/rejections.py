"""Each wrong answer's rejection as a live check recorded it, keyed by a digest of everything that decides it.

The untouched stub of each exercise (its answer cell as the exercises notebook ships it) is one more wrong answer,
recorded under ``<exercise>__unsolved``.

A wrong answer's verdict depends only on its own file, the lesson (its check, the modules and messages the lesson's
notebooks depend on: ``compiler.digest.lesson_digest``, which includes the celery and kombu versions) and the
check runner with what it reaches. When none of these changed since a live run rejected the answer, running it
again proves nothing new: the course's self-check re-runs live only the answers whose digest differs from the one
recorded beside them (``wrong_answers/rejections.json``), and records a new rejection when
``CELERYLAB_RECORD_REJECTIONS=1`` is set.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import stat
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from celerylab import atomic, wrong_answers
from celerylab.compiler.digest import lesson_digest
from celerylab.compiler.imports import PACKAGE, parse_python, reached, referenced
from celerylab.course import Course, Lesson
from celerylab.wrong_answers import FOLDER, SEPARATOR, WrongAnswer

FORMAT = "1"
RECORD = "rejections.json"
RECORD_ENV = "CELERYLAB_RECORD_REJECTIONS"
#: what runs every check, whatever the lesson's own modules import
RUNNER = "celerylab.checks.check_run"
#: the slug of an exercise's untouched stub in the record
UNSOLVED = "unsolved"


@dataclass(frozen=True)
class Rejection:
    """A live run's rejection of one wrong answer: the digest it ran on and the first criterion that failed."""

    digest: str
    failed: str


def key(answer: WrongAnswer) -> str:
    """The answer's name in its lesson's record: ``<exercise>__<slug>``."""
    return f"{answer.exercise}{SEPARATOR}{answer.slug}"


def unsolved(exercise: str, module_file: Path) -> WrongAnswer:
    """An exercise's untouched stub, extracted from the exercises notebook to `module_file`, as a wrong answer."""
    return WrongAnswer(exercise, UNSOLVED, Path(module_file))


def _kept_keys(lesson: Lesson) -> set[str]:
    """The names a lesson's record keeps: its wrong answers' and its exercises' stubs'."""
    stubs = {f"{each.name}{SEPARATOR}{UNSOLVED}" for each in Course(lesson.folder.parent).exercises(lesson.name)}
    return stubs | {key(each) for each in wrong_answers.in_lesson(lesson.folder)}


def record_path(lesson: Lesson) -> Path:
    return lesson.folder / FOLDER / RECORD


@lru_cache(maxsize=None)
def _lesson_digest(lesson: Lesson, package: Path) -> str:
    return lesson_digest(lesson, package)


def answer_digest(lesson: Lesson, answer: WrongAnswer, package: Path = PACKAGE) -> str:
    """sha256 (16 hex digits) over the format, the lesson's digest, the answer's bytes and the package modules the
    answer and the check runner reach."""
    source = answer.path.read_bytes().replace(b"\r\n", b"\n")
    names = {RUNNER}
    for tree in parse_python(source.decode("utf-8", errors="replace")):
        names |= referenced(tree)
    hashed = hashlib.sha256(f"celerylab-rejection:{FORMAT}\n{_lesson_digest(lesson, package)}\n".encode())
    for path in reached(names, package, outside=lesson.folder.resolve()):
        content = path.read_bytes().replace(b"\r\n", b"\n")
        hashed.update(f"package/{path.relative_to(package).as_posix()}\0{len(content)}\0".encode())
        hashed.update(content)
    hashed.update(f"answer\0{len(source)}\0".encode() + source)
    return hashed.hexdigest()[:16]


def recorded(lesson: Lesson, answer: WrongAnswer) -> Rejection | None:
    """The rejection recorded for this answer, if any (whatever its digest)."""
    entry = (atomic.read_json(record_path(lesson), default={}) or {}).get("answers", {}).get(key(answer))
    if not isinstance(entry, dict) or not entry.get("digest"):
        return None
    return Rejection(str(entry["digest"]), str(entry.get("failed", "")))


def still_proven(lesson: Lesson, answer: WrongAnswer, package: Path = PACKAGE) -> Rejection | None:
    """The recorded rejection when it was measured on exactly today's inputs, else None (run it live)."""
    rejection = recorded(lesson, answer)
    if rejection is None or rejection.digest != answer_digest(lesson, answer, package):
        return None
    return rejection


def recording() -> bool:
    """Whether live rejections are written to the record (``CELERYLAB_RECORD_REJECTIONS=1``)."""
    return os.environ.get(RECORD_ENV, "") not in ("", "0")


@contextmanager
def _locked(folder: Path):
    """An exclusive lock on the folder itself (no lock file left beside the answers)."""
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


def _new_file_mode() -> int:
    """The mode open() gives a new file: 0666 less the process's umask."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def record(lesson: Lesson, answer: WrongAnswer, rejection: Rejection) -> None:
    """Write one rejection into its lesson's record (several test processes may write one record at once)."""
    path = record_path(lesson)
    with _locked(path.parent):
        data = atomic.read_json(path, default={}) or {}
        answers = dict(data.get("answers", {}))
        answers[key(answer)] = {"digest": rejection.digest, "failed": rejection.failed}
        present = _kept_keys(lesson)
        answers = {name: answers[name] for name in sorted(answers) if name in present}
        mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else _new_file_mode()
        atomic.write_json(path, {"format": FORMAT, "answers": answers})
        path.chmod(mode)  # the atomic writer's temporary file is 0600: the record stays readable in a shared checkout
