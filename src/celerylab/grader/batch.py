"""`grade`: every submission in a folder, each in its own process and stack, into a gradebook and feedback.

Files are prepared as the jobs run (never all before the first one starts), and each one ends as a
gradebook entry whatever happens to it: graded, rejected with its reason, or a grader failure.
"""
from __future__ import annotations

import hashlib
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from celerylab.course import Course
from celerylab.grader import feedback, intake, nbgrader_layout, scoring
from celerylab.grader.entry import Entry
from celerylab.grader.entry_finish import course_order, finish
from celerylab.grader.gradebook import Gradebook
from celerylab.grader.policy import LatePolicy, stamp
from celerylab.grader.prepare import Limits, Prepared, prepare
from celerylab.grader.spec import JobResult
from celerylab.grader.submission import Rejected
from celerylab.i18n import t

SAVE_EVERY = 1.0
GRADER_FAILURE = "grader_failure"  # the grader's fault, not the learner's: no points taken, regraded next run


@dataclass
class Options:
    """How to grade: output folder, parallel jobs, remote broker, where the course lives, limits."""

    out: Path
    jobs: int = 1
    broker: str | None = None
    exercises_dir: Path | None = None
    course: Course = field(default_factory=Course.at)
    limits: Limits = field(default_factory=Limits)
    show_progress: bool = True
    force: bool = False  # grade again even what is unchanged since the last run
    late: LatePolicy = field(default_factory=LatePolicy)
    roster: dict | None = None  # roster.read(): submission file -> learner
    csv_sep: str = ","
    exports: tuple = ()  # "canvas", "moodle", "gradescope"
    canvas_assignments: dict = field(default_factory=dict)  # lesson -> Canvas assignment id (canvas.csv's columns)
    sandbox: bool = True  # False only with --unsafe-no-sandbox (local jobs; a remote worker decides for itself)


@dataclass
class Summary:
    graded: int = 0
    rejected: int = 0
    skipped: int = 0
    failed: int = 0


@dataclass
class Outcome:
    """What became of one submission: its entry (None when unchanged since the last run) and the lesson's exercises."""

    found: intake.Found
    entry: Entry | None
    exercises: list = field(default_factory=list)


def base_entry(found: intake.Found, digest: str | None, lesson=None, lang=None) -> Entry:
    # nbgrader's timestamp.txt, else the file's time; a roster's `submitted` wins over both
    submitted = nbgrader_layout.submitted_at(found.path, found.file)
    try:
        submitted = submitted or stamp(os.lstat(found.path).st_mtime)
    except OSError:
        submitted = None
    return Entry(found.key, found.file, found.key, lesson, lang or "pt", digest, submitted)


def _lesson_exercises(lesson: str | None, course: Course) -> list:
    try:
        return list(course.exercises(lesson)) if lesson in course.lesson_names() else []
    except Exception:  # an unreadable course must not cost this entry
        return []


def turned_down(found: intake.Found, book: Gradebook, options: Options, rejection: Rejected,
                status: str = "rejected") -> Outcome:
    """The entry of a submission that could not be graded; an unchanged rejection is skipped on a re-run."""
    digest = None
    if status == "rejected":
        digest = hashlib.sha256(f"{rejection.key}|{sorted(rejection.values.items())}".encode()).hexdigest()
        if book.unchanged(found.key, digest) and not options.force:
            return Outcome(found, None)
    lesson_exercises = _lesson_exercises(rejection.lesson, options.course)
    lesson = rejection.lesson if lesson_exercises else None
    entry = scoring.rejected(base_entry(found, digest, lesson, rejection.lang), rejection.key, rejection.values,
                             lesson_exercises, status=status)
    return Outcome(found, entry, lesson_exercises)


def failure(error: BaseException) -> Rejected:
    return Rejected("grading.reason.failed", error=f"{type(error).__name__}: {error}")


def stage(found: intake.Found, base: Path, book: Gradebook, options: Options) -> Prepared | Outcome:
    """A job ready to run, or the submission's outcome already (rejected, unchanged, grader failure)."""
    try:
        prepared = prepare(found, base, options.exercises_dir, options.course, options.limits)
    except Rejected as rejection:
        return turned_down(found, book, options, rejection)
    except Exception as error:  # a grader fault on one file must not stop the batch
        return turned_down(found, book, options, failure(error), status=GRADER_FAILURE)
    if book.unchanged(found.key, prepared.digest) and not options.force:
        return Outcome(found, None)
    prepared.job.hide = hidden_folders(options)
    prepared.job.confine = options.sandbox
    return prepared


def hidden_folders(options: Options) -> list[str]:
    """What a job must not see: the gradebook and feedback of everyone, and the solutions (the graded course's,
    and the package's own in a checkout, which a copy of the course graded from elsewhere shares)."""
    from celerylab.checks.locate import candidate_folders
    from celerylab.course import CHECKOUT

    folders = [Path(options.out), *candidate_folders("solutions", None, options.course), CHECKOUT / "solutions"]
    if options.exercises_dir:
        folders.append(Path(options.exercises_dir).resolve().parent / "solutions")
    return sorted({str(Path(folder).resolve()) for folder in folders})


def graded(prepared: Prepared, found: intake.Found, result: JobResult | None, error: str | None,
           book: Gradebook, options: Options) -> Outcome:
    sub = prepared.submission
    if error is not None:
        rejection = Rejected("grading.reason.failed", about=(sub.lesson, sub.lang), error=error)
        return turned_down(found, book, options, rejection, status=GRADER_FAILURE)
    failed = result.grader_errors()
    if failed:
        keep_log(options.out, found.key, result.log or "")
        rejection = Rejected("grading.reason.grader_failure", about=(sub.lesson, sub.lang),
                             error="; ".join(f"{exercise}: {why}" for exercise, why in sorted(failed.items())),
                             log=f"logs/{found.key}.log")
        return turned_down(found, book, options, rejection, status=GRADER_FAILURE)
    kept = None
    if result.log:  # a job died during a check: why, for the instructor
        try:
            keep_log(options.out, found.key, result.log)
            kept = f"logs/{found.key}.log"
        except OSError:  # a full disk costs the instructor this log, never the learner their entry
            pass
    fields = base_entry(found, prepared.digest, sub.lesson, sub.lang)
    entry = scoring.entry(fields, result, prepared.exercises)
    entry.log = kept
    confinement = result.confinement or {}
    entry.isolation = {"given": confinement.get("given", []), "missing": confinement.get("missing", ["all"]),
                       **({"unsafe": True} if confinement.get("unsafe") else {})}
    return Outcome(found, entry, prepared.exercises)


def keep_log(out: Path, key: str, text: str) -> Path:
    """A failed job's log beside the gradebook (``logs/KEY.log``), for the instructor; also a graded job's when
    one of its attempts died during a check (run_job keeps the log then)."""
    from celerylab.atomic import write_text

    return write_text(Path(out) / "logs" / f"{key}.log", text)


def save_kept(book: Gradebook) -> bool:
    """Save the gradebook during the batch; a full disk (ENOSPC) keeps the previous files (atomic writes) and
    the batch goes on: the next save, and the last one, write everything."""
    try:
        book.save()
        return True
    except OSError as error:
        print(t("grading.save_failed", error=f"{type(error).__name__}: {error}"), file=sys.stderr)
        return False


def grade(where: str | Path, options: Options) -> Summary:
    """Grade every submission under `where`; a bad one is recorded with its reason, never stops the batch."""
    where = Path(where).absolute()
    base = where if where.is_dir() else where.parent
    book = Gradebook(options.out, order=course_order(options.course), sep=options.csv_sep, roster=options.roster)
    summary, saved, warned = Summary(), time.monotonic(), False
    found = list(intake.find(where))
    outcomes = _remote if options.broker else _local
    with tqdm(total=len(found), disable=not options.show_progress or not found, unit="nb") as bar:
        for outcome in outcomes(found, base, book, options):
            bar.update()
            entry = outcome.entry
            if entry is None:
                summary.skipped += 1
                continue
            status = entry.status
            missing = (entry.isolation or {}).get("missing")
            if missing and not warned:
                warned = True
                print(t("grading.isolation_missing", missing=", ".join(missing)), file=sys.stderr)
            try:
                finish(entry, options)
            except Exception as error:  # a roster or policy fault costs this entry its bookkeeping, not the batch
                entry.feedback_error = f"{type(error).__name__}: {error}"
            summary.graded += status == "graded"
            summary.rejected += status == "rejected"
            summary.failed += status == GRADER_FAILURE
            book.put(entry.key, entry, save=False)
            try:
                feedback.write(options.out, entry, outcome.exercises)
            except Exception as error:  # the entry is kept; only its report is missing
                entry.feedback_error = f"{type(error).__name__}: {error}"
            if time.monotonic() - saved > SAVE_EVERY or status == "graded":
                save_kept(book)  # at most once a second for rejections: a batch of 10 000 stays linear
                saved = time.monotonic()
    for entry in book.entries.values():  # a new roster or deadline applies to unchanged entries too
        finish(entry, options)
    book.save()
    from celerylab.grader.exports import write_exports

    write_exports(book, options)
    return summary






def _one(found: intake.Found, base: Path, book: Gradebook, options: Options) -> Outcome:
    from celerylab.grader.job_supervisor import run_job

    staged = stage(found, base, book, options)
    if isinstance(staged, Outcome):
        return staged
    try:
        return graded(staged, found, run_job(staged.job), None, book, options)
    except Exception as error:  # a grader fault on one submission must not lose the others
        return graded(staged, found, None, f"{type(error).__name__}: {error}", book, options)


def _local(found: list, base: Path, book: Gradebook, options: Options):
    """Outcomes as jobs finish; each worker thread prepares its file just before running it."""
    with ThreadPoolExecutor(max_workers=options.jobs) as pool:
        futures = {pool.submit(_one, item, base, book, options): item for item in found}
        for future in as_completed(futures):
            try:
                yield future.result()
            except Exception as error:  # even the fallback failed: the entry still exists
                yield turned_down(futures[future], book, options, failure(error), status=GRADER_FAILURE)


def _remote(found: list, base: Path, book: Gradebook, options: Options):
    """Outcomes as remote workers finish; each file is prepared and sent while earlier ones run."""
    from celerylab.grader.remote import RemoteBatch

    batch = RemoteBatch(options.broker)
    for item in found:
        staged = stage(item, base, book, options)
        if isinstance(staged, Outcome):
            yield staged
        else:
            batch.send(staged, item)
        for prepared, where, result, error in batch.poll():
            yield graded(prepared, where, result, error, book, options)
    for prepared, where, result, error in batch.wait():
        yield graded(prepared, where, result, error, book, options)
