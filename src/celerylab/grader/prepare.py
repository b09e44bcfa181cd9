"""From a submitted file to a grading job: validate, match the canonical notebook, restore the checks."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from celerylab.checks.locate import course_notebook
from celerylab.course import Course, Exercise
from celerylab.grader.intake import Found, read
from celerylab.grader.restore import clear_outputs, restore_checks
from celerylab.grader.spec import JobSpec, course_root
from celerylab.grader.submission import Rejected, Submission, from_bytes


@dataclass
class Limits:
    """Time and size limits of one grading job."""

    cell_timeout: float = 120
    notebook_timeout: float = 600
    check_timeout: float = 180
    output_limit: int = 5 * 1024 * 1024


@dataclass
class Prepared:
    """A submission ready to grade: the job to run and what the gradebook needs to know about it."""

    submission: Submission
    exercises: list[Exercise]
    digest: str
    job: JobSpec = field(repr=False)


def lesson_digest(lesson_exercises: list[Exercise], canonical: Path) -> str:
    """What grading depends on besides the submission: checks, exercise metadata, canonical notebook."""
    digest = hashlib.sha256(canonical.read_bytes())
    if lesson_exercises:
        folder = lesson_exercises[0].root / lesson_exercises[0].lesson
        for name in ("checks.py", "exercises.yml"):
            if (folder / name).exists():
                digest.update((folder / name).read_bytes())
    return digest.hexdigest()


def canonical_notebook(lesson: str, lang: str, exercises_dir: Path | None, course: Course, base: Path) -> Path | None:
    """The course's exercise notebook of `lesson`: from `exercises_dir` (``--exercises``), else beside the course's
    lessons or in its output root, never from the current folder nor from under the submissions folder `base`
    (a learner's ``exercises/`` there became every submission's checks when the instructor graded from it)."""
    implicit = [*([] if course.in_package else [course.lessons_dir.parent / "exercises"]),
                course.output_root / "exercises"]
    submitted = Path(base).resolve()
    folders = [exercises_dir] if exercises_dir else \
        [folder for folder in implicit if not folder.resolve().is_relative_to(submitted)]
    for folder in folders:
        found = course_notebook(lesson, lang, "exercises", folder, course=course)
        if found is not None:
            return found
    return None


def prepare(found: Found, base: Path, exercises_dir: Path | None, course: Course, limits: Limits) -> Prepared:
    """Raises Rejected (with the lesson and language when known) for anything ungradable."""
    submission = from_bytes(read(found.path, base), found.path, found.key)
    if submission.lesson not in course.lesson_names():  # never a path built from what the file says
        raise Rejected("grading.reason.unknown_lesson", lesson=submission.lesson, language=submission.lang)
    lesson_exercises = list(course.exercises(submission.lesson))
    canonical_path = canonical_notebook(submission.lesson, submission.lang, exercises_dir, course, base)
    if not lesson_exercises or canonical_path is None:
        raise Rejected("grading.reason.unknown_lesson", about=(submission.lesson, submission.lang),
                       lesson=submission.lesson, language=submission.lang)
    canonical = nbformat.read(str(canonical_path), as_version=4)
    notebook = clear_outputs(restore_checks(submission.notebook, canonical))
    job = JobSpec([info.id for info in lesson_exercises], notebook, course_root(course),
                  limits.cell_timeout, limits.notebook_timeout, limits.check_timeout, limits.output_limit)
    digest = hashlib.sha256((submission.digest + lesson_digest(lesson_exercises, canonical_path)).encode()).hexdigest()
    return Prepared(submission, lesson_exercises, digest, job)
