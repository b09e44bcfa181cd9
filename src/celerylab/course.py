"""The course's metadata: lessons in order (course.yml) and each lesson's exercises (exercises.yml)."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

LESSONS_DIR = Path(__file__).parent / "lessons"


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

    @property
    def checks_module(self) -> str:
        return f"celerylab.lessons.{self.lesson}.checks"


def lesson_names() -> list[str]:
    """Lesson folders in course order (course.yml), else every lesson folder sorted."""
    listing = Path(__file__).parent / "course.yml"
    if listing.exists():
        data = yaml.safe_load(listing.read_text(encoding="utf-8")) or {}
        names = data.get("lessons", data) if isinstance(data, dict) else data
        return [str(name) for name in names]
    return sorted(p.name for p in LESSONS_DIR.iterdir() if (p / "lesson.md").exists())


def lesson_prefix(lesson: str) -> str:
    return lesson.split("_", 1)[0]


@lru_cache(maxsize=None)
def exercises(lesson: str) -> tuple[Exercise, ...]:
    path = LESSONS_DIR / lesson / "exercises.yml"
    if not path.exists():
        return ()
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return tuple(
        Exercise(id=f"{lesson_prefix(lesson)}.{name}", lesson=lesson, name=name,
                 points=int(info.get("points", 1)), module=info["module"],
                 title=info.get("title", {}), hints=tuple(info.get("hints", ())))
        for name, info in data.items()
    )


def all_exercises() -> list[Exercise]:
    return [exercise for lesson in lesson_names() for exercise in exercises(lesson)]


def find_exercise(exercise_id: str) -> Exercise:
    for exercise in all_exercises():
        if exercise.id == exercise_id or exercise.name == exercise_id:
            return exercise
    raise KeyError(exercise_id)
