"""The course: lessons in order (course.yml), where their folders are, and where outputs go."""
from __future__ import annotations

from pathlib import Path

import yaml

from celerylab.compiler.model import BuildError, Lesson

PACKAGE = Path(__file__).resolve().parents[1]
COURSE_FILE = PACKAGE / "course.yml"
LESSONS_DIR = PACKAGE / "lessons"


def default_root() -> Path:
    """The checkout holding notebooks/, exercises/, solutions/ (else the current folder)."""
    checkout = PACKAGE.parents[1]
    return checkout if (checkout / "pyproject.toml").is_file() else Path.cwd()


def lesson_names(course_file: Path = COURSE_FILE) -> list[str]:
    names = yaml.safe_load(course_file.read_text(encoding="utf-8")) or []
    if isinstance(names, dict):  # also accepted: {"lessons": [...]}
        names = names.get("lessons", [])
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise BuildError("build.err.bad_course", path=course_file)
    return names


def load_lessons(course_file: Path = COURSE_FILE, lessons_dir: Path = LESSONS_DIR,
                 only: list[str] | None = None) -> list[Lesson]:
    """The selected lessons (all by default) in course order; each must have a lesson.md."""
    names = lesson_names(course_file)
    for name in only or []:
        if name not in names:
            raise BuildError("build.err.unknown_lesson", lesson=name, known=", ".join(names) or "-")
    lessons = [Lesson(name, lessons_dir / name) for name in names if not only or name in only]
    for lesson in lessons:
        if not lesson.source.is_file():
            raise BuildError("build.err.no_source", path=lesson.source)
    return lessons
