"""`celerylab build`: plan each lesson, write its exercises, execute its stale notebooks in parallel, write them."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from celerylab.compiler import notebook_io
from celerylab.compiler.executor import execute_all
from celerylab.compiler.model import LANGS, Lesson
from celerylab.compiler.plan import plan_lesson
from celerylab.compiler.progress_bar import ProgressBar
from celerylab.compiler.stale import staleness


@dataclass
class LessonReport:
    """What one lesson's build did: files written, files already fresh, runs and their failures."""

    lesson: str
    written: list[Path] = field(default_factory=list)
    fresh: list[Path] = field(default_factory=list)
    executed: list[Path] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0


def build_lesson(lesson: Lesson, root: Path, langs: tuple[str, ...] = LANGS, *, execute: bool = True,
                 force: bool = False, parallel: int = 4, timeout: float = 300,
                 progress: ProgressBar | None = None) -> LessonReport:
    """Generate all of a lesson's notebooks; fresh executed ones are kept unless `force`."""
    started = time.perf_counter()
    report = LessonReport(lesson.name)
    jobs = []
    for target, notebook in plan_lesson(lesson, langs).items():
        path = target.path(root)
        if not target.executed:
            (report.written if notebook_io.write(notebook, path) else report.fresh).append(path)
        elif not force and staleness(target, notebook, root, require_executed=execute) is None:
            report.fresh.append(path)
        elif execute:
            jobs.append((target, notebook))
        else:
            notebook_io.write(notebook, path)
            report.written.append(path)
    for outcome in execute_all(jobs, progress, timeout, parallel) if jobs else []:
        if outcome.error:
            report.failures.append(outcome.error)
            continue
        path = outcome.target.path(root)
        report.executed.append(path)
        notebook_io.write(outcome.notebook, path)
        report.written.append(path)
    report.seconds = time.perf_counter() - started
    return report


def build(lessons: list[Lesson], root: Path, langs: tuple[str, ...] = LANGS, **options) -> list[LessonReport]:
    """Build lessons one after another (each lesson's notebooks run in parallel)."""
    return [build_lesson(lesson, root, langs, **options) for lesson in lessons]
