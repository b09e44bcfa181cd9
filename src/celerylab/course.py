"""The course's metadata: lessons in order (course.yml) and each lesson's exercises (exercises.yml)."""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

LESSONS_DIR = Path(__file__).parent / "lessons"
ROOT_ENV = "CELERYLAB_COURSE_ROOT"


def course_root(root: str | Path | None = None) -> Path:
    """The folder holding the lesson folders: `root`, else $CELERYLAB_COURSE_ROOT, else the package's lessons."""
    return Path(root or os.environ.get(ROOT_ENV) or LESSONS_DIR).resolve()


@dataclass(frozen=True)
class Exercise:
    """One graded exercise: `id` is ``<lesson prefix>.<name>``, e.g. ``l01.welcome_once``."""

    id: str
    lesson: str
    name: str
    points: int
    module: str
    title: dict = field(default_factory=dict, hash=False)
    hints: tuple = ()
    root: Path = field(default=LESSONS_DIR.resolve(), compare=False)

    @property
    def in_package(self) -> bool:
        return self.root == LESSONS_DIR.resolve()

    @property
    def checks_module(self) -> str:
        if self.in_package:
            return f"celerylab.lessons.{self.lesson}.checks"
        return f"celerylab_course_{hashlib.sha1(str(self.root).encode()).hexdigest()[:10]}_{self.lesson}_checks"

    @property
    def app_module(self) -> str | None:
        """The lesson's own Celery app module (``tasks.py``), when the lesson is in the package."""
        return f"celerylab.lessons.{self.lesson}.tasks" if self.in_package else None

    @property
    def checks_path(self) -> Path:
        return self.root / self.lesson / "checks.py"


def lesson_names(root: str | Path | None = None) -> list[str]:
    """Lesson folders in course order (course.yml), else every lesson folder sorted."""
    base = course_root(root)
    listing = base / "course.yml" if base != LESSONS_DIR.resolve() else Path(__file__).parent / "course.yml"
    if listing.exists():
        data = yaml.safe_load(listing.read_text(encoding="utf-8")) or {}
        names = data.get("lessons", data) if isinstance(data, dict) else data
        return [str(name) for name in names]
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir() if (p / "exercises.yml").exists() or (p / "lesson.md").exists())


def lesson_prefix(lesson: str) -> str:
    return lesson.split("_", 1)[0]


@lru_cache(maxsize=None)
def _exercises(lesson: str, base: Path) -> tuple[Exercise, ...]:
    path = base / lesson / "exercises.yml"
    if not path.exists():
        return ()
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return tuple(
        Exercise(id=f"{lesson_prefix(lesson)}.{name}", lesson=lesson, name=name,
                 points=int(info.get("points", 1)), module=info["module"],
                 title=info.get("title", {}), hints=tuple(info.get("hints", ())), root=base)
        for name, info in data.items()
    )


def exercises(lesson: str, root: str | Path | None = None) -> tuple[Exercise, ...]:
    return _exercises(lesson, course_root(root))


def all_exercises(root: str | Path | None = None) -> list[Exercise]:
    return [exercise for lesson in lesson_names(root) for exercise in exercises(lesson, root)]


def find_exercise(exercise_id: str, root: str | Path | None = None) -> Exercise:
    for exercise in all_exercises(root):
        if exercise.id == exercise_id or exercise.name == exercise_id:
            return exercise
    raise KeyError(exercise_id)
