"""`celerylab dev check`: the course author's fast check (no stack, no notebook execution), problem by problem."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from celerylab.authoring import catalogs, claims, exercises, keys
from celerylab.authoring.audit_keys import audit_key_problems
from celerylab.authoring.claim_experiments import claim_experiment_problems
from celerylab.authoring.experiment_cells import experiment_problems
from celerylab.authoring.problems import Problem
from celerylab.authoring.wrong_answer_check import wrong_answer_problems
from celerylab.compiler import stale
from celerylab.compiler.errors import SourceError
from celerylab.compiler.model import LANGS, Lesson
from celerylab.compiler.parser import parse_file
from celerylab.course import Course
from celerylab.i18n import TranslatedError

PACKAGE_COURSE = Course()  # the package's lessons and course.yml, its notebooks in the checkout
LESSON_NAME = re.compile(r"^l(\d{2})_[a-z][a-z0-9_]*$")


@dataclass
class Report:
    """Problems to fix in the sources, stale generated files (apart: rebuilding fixes them), and counts."""

    problems: list[Problem] = field(default_factory=list)
    stale: list[Problem] = field(default_factory=list)
    lessons: int = 0
    exercises: int = 0
    messages: int = 0
    teachers: dict = field(default_factory=dict, repr=False)  # audit rule id -> the lesson whose cells teach it
    exempt: list[Problem] = field(default_factory=list)  # claim tests whose claims.yml says why they measure nothing live

    @property
    def ok(self) -> bool:
        return not self.problems and not self.stale


def course_problems(course_file: Path, lessons_dir: Path, names: list[str]) -> list[Problem]:
    """Every listed lesson is named lNN_slug, has a unique number, a folder and a lesson.md; no folder is left out."""
    problems, numbers = [], {}
    for name in names:
        match = LESSON_NAME.match(name)
        if not match:
            problems.append(Problem(course_file, None, "dev.p.bad_lesson_name", {"lesson": name}))
        elif match.group(1) in numbers:
            problems.append(Problem(course_file, None, "dev.p.number_twice",
                                    {"lesson": name, "other": numbers[match.group(1)]}))
        else:
            numbers[match.group(1)] = name
        if not (lessons_dir / name).is_dir():
            problems.append(Problem(course_file, None, "dev.p.no_folder", {"lesson": name, "folder": lessons_dir / name}))
        elif not (lessons_dir / name / "lesson.md").is_file():
            problems.append(Problem(lessons_dir / name, None, "dev.p.no_source", {"lesson": name}))
    for folder in sorted(lessons_dir.glob("l*/lesson.md")):
        if folder.parent.name not in names:
            problems.append(Problem(folder, None, "dev.p.not_in_course", {"lesson": folder.parent.name}))
    return problems


def lesson_problems(folder: Path, catalog: catalogs.Catalog, report: Report) -> list:
    """One lesson: its source parses, its exercises agree everywhere, the keys it uses exist. Returns its cells."""
    prefix = folder.name.split("_", 1)[0]
    ids, problems = exercises.declared(folder, prefix)
    report.exercises += len(ids)
    try:
        cells = parse_file(folder / "lesson.md")
    except SourceError as error:
        problems.append(Problem(Path(error.path), error.line, error.problem_key, dict(error.values)))
        cells = None
    if cells is not None:
        problems += exercises.cell_problems(folder, prefix, cells, ids)
        problems += audit_key_problems(folder, cells, report.teachers)
        problems += experiment_problems(folder, cells)
        unobserved, exempt = claim_experiment_problems(folder, cells, claims.described_claims(folder)[0])
        problems += unobserved
        report.exempt += [Problem(path, line, "matrix.claims.exempt", {"test": name}) for path, line, name in exempt]
    problems += exercises.check_problems(folder, ids)
    problems += wrong_answer_problems(folder, ids)
    problems += keys.lesson_key_problems(folder, catalog)[0]
    problems += claims.claim_problems(folder)
    problems += claims.since_problems(folder)
    report.problems += problems
    return cells


def check_course(checked: Course = PACKAGE_COURSE, root: Path | None = None, only: list[str] | None = None,
                 freshness: bool = True) -> Report:
    """Run every rule on `checked` (or only the lessons named); `root` holds the generated notebooks (default:
    the course's output root)."""
    report = Report()
    course_file, lessons_dir = checked.course_file, checked.lessons_dir
    try:
        names = checked.lesson_names()
    except (TranslatedError, OSError) as error:
        report.problems.append(Problem(course_file, None, "dev.p.bad_course", {"error": str(error)}))
        return report
    report.problems += [p for p in course_problems(course_file, lessons_dir, names)
                        if not only or p.values.get("lesson") in only]
    catalog = catalogs.load(lessons_dir, names)
    report.problems += catalog.problems
    report.messages = len(catalog.where)
    fresh_lessons = []
    for name in names:
        if only and name not in only or not (lessons_dir / name / "lesson.md").is_file():
            continue
        report.lessons += 1
        if lesson_problems(lessons_dir / name, catalog, report) is not None:
            fresh_lessons.append(Lesson(name, lessons_dir / name))
    if freshness:
        root = root or checked.output_root
        whole = not only and len(fresh_lessons) == len(names)
        report.stale = [Problem(path, None, "dev.p.stale", {"reason": reason})
                        for path, reason in stale.check(fresh_lessons, root, LANGS, whole_course=whole)]
    return report
