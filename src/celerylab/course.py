"""The course model: where lessons live, their order (course.yml), their exercises and their generated notebooks."""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from celerylab.i18n import TranslatedError

PACKAGE = Path(__file__).resolve().parent
LESSONS_DIR = PACKAGE / "lessons"
COURSE_FILE = PACKAGE / "course.yml"
CHECKOUT = PACKAGE.parents[1]
LESSONS_ENV = "CELERYLAB_COURSE_ROOT"  # a folder of lesson folders (with its own course.yml)
OUTPUT_ENV = "CELERYLAB_ROOT"  # the folder holding notebooks/, exercises/, solutions/
FOLDERS = {"lesson": "notebooks", "exercises": "exercises", "solutions": "solutions"}
# An exercises notebook has a name of its own, so its JupyterLab tab is not the lesson's.
EXERCISES_SUFFIX = {"pt": "_exercicios", "en": "_exercises"}


class CourseError(TranslatedError):
    """A course that cannot be read (course.yml, a lesson folder): a catalog key, rendered in the current language."""


@dataclass(frozen=True)
class Lesson:
    """A lesson folder ``lNN_slug``: its source, its exercise-id prefix and its notebooks' file stem."""

    name: str
    folder: Path

    @property
    def stem(self) -> str:
        """``l01_retries`` -> ``01_retries``, the generated notebooks' file name."""
        return self.name[1:] if self.name.startswith("l") else self.name

    def file_name(self, lang: str, variant: str) -> str:
        """``01_retries.ipynb``; the exercises notebook ``01_retries_exercicios.ipynb`` (pt), ``_exercises`` (en)."""
        suffix = EXERCISES_SUFFIX.get(lang, "_exercises") if variant == "exercises" else ""
        return f"{self.stem}{suffix}.ipynb"

    @property
    def prefix(self) -> str:
        """``l01_retries`` -> ``l01``, the prefix of its exercise ids."""
        return self.name.split("_", 1)[0]

    @property
    def source(self) -> Path:
        return self.folder / "lesson.md"


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
    root: Path = field(default=LESSONS_DIR, compare=False)
    partial: bool = False  # partial credit: points in proportion to the criteria passed

    @property
    def in_package(self) -> bool:
        return self.root == LESSONS_DIR

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


@dataclass(frozen=True)
class Course:
    """One course: a folder of lesson folders, the file that orders them, and where generated notebooks go."""

    lessons_dir: Path = LESSONS_DIR
    course_file: Path = COURSE_FILE
    output_root: Path = CHECKOUT

    @classmethod
    def at(cls, lessons_dir: str | Path | None = None, output_root: str | Path | None = None) -> "Course":
        """The package's course, or the course of the lessons folder given (its course.yml inside); its
        generated notebooks under `output_root` (default: the folder's parent; the checkout, else the cwd)."""
        output = Path(output_root).resolve() if output_root else None
        if lessons_dir and Path(lessons_dir).resolve() != LESSONS_DIR:
            folder = Path(lessons_dir).resolve()
            return cls(folder, folder / "course.yml", output or folder.parent)
        return cls(output_root=output or (CHECKOUT if (CHECKOUT / "pyproject.toml").is_file() else Path.cwd()))

    @classmethod
    def of_process(cls) -> "Course":
        """The course a process that celerylab started was told to use: $CELERYLAB_COURSE_ROOT (the grader sets
        it for a job's kernel, see grader/job_supervisor.py), notebooks under $CELERYLAB_ROOT (the lab's kernels).
        Read only at that process's edge (a notebook's check() or hint()); everything else is handed a Course."""
        return cls.at(os.environ.get(LESSONS_ENV), os.environ.get(OUTPUT_ENV))

    @classmethod
    def at_checkout(cls, root: str | Path) -> "Course":
        """The course of a checkout (or a copy of one): src/celerylab/lessons, notebooks beside it."""
        root = Path(root).resolve()
        lessons = root / "src" / "celerylab" / "lessons"
        return cls(lessons, lessons.parent / "course.yml", root)

    @property
    def in_package(self) -> bool:
        return self.lessons_dir == LESSONS_DIR

    def lesson_names(self) -> list[str]:
        """Lesson folders in course order, as course.yml lists them (a list, or ``{lessons: [...]}``)."""
        return list(_names(self.course_file))

    def lessons(self, only: list[str] | None = None) -> list[Lesson]:
        """The selected lessons (all by default) in course order; each must have its lesson.md."""
        names = self.lesson_names()
        for name in only or []:
            if name not in names:
                raise CourseError("build.err.unknown_lesson", lesson=name, known=", ".join(names) or "-")
        lessons = [Lesson(name, self.lessons_dir / name) for name in names if not only or name in only]
        for lesson in lessons:
            if not lesson.source.is_file():
                raise CourseError("build.err.no_source", path=lesson.source)
        return lessons

    def exercises(self, lesson: str) -> tuple[Exercise, ...]:
        return _exercises(lesson, self.lessons_dir)

    def all_exercises(self) -> list[Exercise]:
        return [exercise for lesson in self.lesson_names() for exercise in self.exercises(lesson)]

    def find_exercise(self, exercise_id: str) -> Exercise:
        for exercise in self.all_exercises():
            if exercise.id == exercise_id or exercise.name == exercise_id:
                return exercise
        raise KeyError(exercise_id)

    def notebook_path(self, lesson: Lesson | str, lang: str, variant: str) -> Path:
        """Where a generated notebook lives, e.g. notebooks/pt/01_retries.ipynb, exercises/pt/01_retries_exercicios.ipynb."""
        lesson = lesson if isinstance(lesson, Lesson) else Lesson(lesson, self.lessons_dir / lesson)
        return self.output_root / FOLDERS[variant] / lang / lesson.file_name(lang, variant)


def _names(course_file: Path) -> tuple[str, ...]:
    if not course_file.is_file():
        return ()
    names = yaml.safe_load(course_file.read_text(encoding="utf-8")) or []
    if isinstance(names, dict):
        names = names.get("lessons", [])
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise CourseError("build.err.bad_course", path=course_file)
    return tuple(names)


@lru_cache(maxsize=None)
def _exercises(lesson: str, base: Path) -> tuple[Exercise, ...]:
    path = base / lesson / "exercises.yml"
    if not path.exists():
        return ()
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    prefix = Lesson(lesson, base / lesson).prefix
    return tuple(
        Exercise(id=f"{prefix}.{name}", lesson=lesson, name=name, points=int(info.get("points", 1)),
                 module=info["module"], title=info.get("title", {}), hints=tuple(info.get("hints", ())), root=base,
                 partial=info.get("partial") is True)
        for name, info in data.items()
    )

