"""`grade`: every submission in a folder, each in its own process and stack, into a gradebook and feedback."""
from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from celerylab.course import exercises
from celerylab.grading import feedback, scoring
from celerylab.grading.gradebook import Gradebook
from celerylab.grading.prepare import Limits, Prepared, prepare
from celerylab.grading.submission import Rejected


@dataclass
class Options:
    """How to grade: output folder, parallel jobs, remote broker, where the course lives, limits."""

    out: Path
    jobs: int = 1
    broker: str | None = None
    exercises_dir: Path | None = None
    root: str | None = None
    limits: Limits = field(default_factory=Limits)
    show_progress: bool = True


@dataclass
class Summary:
    graded: int = 0
    rejected: int = 0
    skipped: int = 0
    failed: int = 0


def find_submissions(where: Path) -> list[Path]:
    if where.is_file():
        return [where]
    return sorted(p for p in where.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def base_entry(path: Path, base: Path, digest: str, key: str, lesson=None, lang=None) -> dict:
    return {"key": key, "learner": key, "file": str(path.relative_to(base) if base in path.parents else path.name),
            "lesson": lesson, "lang": lang or "pt", "digest": digest}


def record(book: Gradebook, options: Options, entry: dict, lesson_exercises) -> None:
    book.put(entry["key"], entry)
    feedback.write(options.out, entry, lesson_exercises)


def grade(where: str | Path, options: Options) -> Summary:
    """Grade every submission under `where`; a bad one is recorded with its reason, never stops the batch."""
    from celerylab.grading.submission import submission_key

    where = Path(where).resolve()
    base = where if where.is_dir() else where.parent
    book, summary, todo = Gradebook(options.out), Summary(), []
    for path in find_submissions(where):
        key = submission_key(path, base)
        try:
            prepared = prepare(path, base, options.exercises_dir, options.root, options.limits)
        except Rejected as rejection:
            digest = hashlib.sha256(path.read_bytes() if path.is_file() else b"").hexdigest()
            if book.unchanged(key, digest):
                summary.skipped += 1
                continue
            meta = _lesson_and_lang(path)
            lesson_exercises = list(exercises(meta[0], options.root)) if meta[0] else []
            entry = scoring.rejected(base_entry(path, base, digest, key, *meta), rejection.key,
                                     rejection.values, lesson_exercises)
            record(book, options, entry, lesson_exercises)
            summary.rejected += 1
            continue
        if book.unchanged(key, prepared.digest):
            summary.skipped += 1
            continue
        todo.append(prepared)
    for prepared, result, failure in _dispatch(todo, options):
        sub = prepared.submission
        base_fields = base_entry(sub.path, base, prepared.digest, sub.key, sub.lesson, sub.lang)
        if failure is not None:
            entry = scoring.rejected(base_fields, "grading.reason.failed", {"error": failure},
                                     prepared.exercises, status="error")
            summary.failed += 1
        else:
            entry = scoring.entry(base_fields, result, prepared.exercises)
            summary.graded += 1
        record(book, options, entry, prepared.exercises)
    book.save()
    return summary


def _lesson_and_lang(path: Path) -> tuple:
    from celerylab.i18n import normalize
    from celerylab.notebook_meta import NotebookMeta

    meta = NotebookMeta.read(path)
    return meta.lesson, normalize(meta.lang)


def _dispatch(todo: list[Prepared], options: Options):
    """Yield (prepared, result, failure) as jobs finish, locally in N processes or on remote workers."""
    bar = tqdm(total=len(todo), disable=not options.show_progress or not todo, unit="nb")
    try:
        if options.broker:
            from celerylab.grading.remote import run_remote

            for prepared, result, failure in run_remote(todo, options.broker):
                bar.update()
                yield prepared, result, failure
            return
        from celerylab.grading.runner import run_job

        with ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
            futures = {pool.submit(run_job, prepared.job): prepared for prepared in todo}
            for future in as_completed(futures):
                bar.update()
                try:
                    yield futures[future], future.result(), None
                except Exception as error:  # a grader fault on one submission must not lose the others
                    yield futures[future], None, f"{type(error).__name__}: {error}"
    finally:
        bar.close()
