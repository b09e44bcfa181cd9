"""`celerylab grade SUBMISSIONS --out DIR [--jobs N] [--broker URL]`: the instructor's batch grader."""
from __future__ import annotations

import math
import os
import sys
import tempfile
from pathlib import Path

from celerylab.commands._common import add_deprecated, add_lang, add_lessons_dir, command_course
from celerylab.i18n import t


class BadOption(Exception):
    """An option that cannot work; the message is one translated line."""


def register(subparsers) -> None:
    parser = subparsers.add_parser("grade", help=t("cmd.grade.help"))
    parser.add_argument("submissions", help=t("cmd.grade.submissions"))
    parser.add_argument("--out", required=True, metavar="DIR", help=t("cmd.grade.out"))
    parser.add_argument("--jobs", default="1", metavar="N", help=t("cmd.grade.jobs"))
    parser.add_argument("--broker", metavar="URL", help=t("cmd.grade.broker"))
    parser.add_argument("--exercises", metavar="DIR", help=t("cmd.grade.exercises"))
    add_lessons_dir(parser, "cmd.grade.lessons_dir")
    add_deprecated(parser, "--course", "--lessons-dir", "lessons_dir", type=Path, metavar="DIR")
    parser.add_argument("--cell-timeout", default="120", metavar="S", help=t("cmd.grade.cell_timeout"))
    parser.add_argument("--notebook-timeout", default="600", metavar="S", help=t("cmd.grade.notebook_timeout"))
    parser.add_argument("--force", action="store_true", help=t("cmd.grade.force"))
    parser.add_argument("--roster", metavar="CSV", help=t("cmd.grade.roster"))
    parser.add_argument("--deadline", metavar="WHEN", help=t("cmd.grade.deadline"))
    parser.add_argument("--grace", default="0", metavar="DURATION", help=t("cmd.grade.grace"))
    parser.add_argument("--late-penalty", default="0", metavar="PERCENT", help=t("cmd.grade.late_penalty"))
    parser.add_argument("--late-cap", default="100", metavar="PERCENT", help=t("cmd.grade.late_cap"))
    parser.add_argument("--csv-sep", default=None, choices=[",", ";", "tab"], help=t("cmd.grade.csv_sep"))
    parser.add_argument("--canvas-assignment", action="append", default=[], metavar="LESSON=ID",
                        help=t("cmd.grade.canvas_assignment"))
    parser.add_argument("--export", action="append", default=[], choices=["canvas", "moodle", "gradescope"],
                        help=t("cmd.grade.export"))
    parser.add_argument("--unsafe-no-sandbox", action="store_true", help=t("cmd.grade.unsafe_no_sandbox"))
    add_lang(parser)
    parser.set_defaults(run=run)


def csv_separator(given: str | None) -> str:
    """The gradebook's separator: as given, else what a spreadsheet in the grader's language opens as columns
    (";" with the decimal comma for Portuguese, as LibreOffice and Excel in pt-BR read it; "," for English)."""
    from celerylab.i18n import get_lang

    if given is None:
        return ";" if get_lang() == "pt" else ","
    return "\t" if given == "tab" else given


def canvas_assignments(given: list[str]) -> dict[str, str]:
    """``--canvas-assignment l01_retries=12345`` (repeatable): each lesson's Canvas assignment id."""
    found = {}
    for text in given:
        lesson, _, ident = text.partition("=")
        if not lesson.strip() or not ident.strip().isdigit():
            raise BadOption(t("cmd.grade.canvas_assignment_bad", value=text))
        found[lesson.strip()] = ident.strip()
    return found


def positive(option: str, text: str, kind=float):
    """`text` as a finite number > 0 (an int for kind=int), or BadOption naming the option."""
    try:
        value = kind(text)
    except (TypeError, ValueError):
        value = None
    if value is None or not math.isfinite(value) or value <= 0:
        raise BadOption(t("cmd.grade.bad_number", option=option, value=text))
    return value


def writable_folder(text: str) -> Path:
    """The output folder, created if missing and proven writable by writing a file in it."""
    out = Path(text)
    if out.exists() and not out.is_dir():
        raise BadOption(t("cmd.grade.out_not_folder", path=out))
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out, prefix=".celerylab-probe-"):
            pass
    except OSError as error:
        raise BadOption(t("cmd.grade.out_unwritable", path=out, error=error.strerror or error)) from None
    return out


def late_policy(args):
    """The deadline and late policy from the options (a penalty without a deadline is refused)."""
    from celerylab.grader.policy import LatePolicy, parse_duration, parse_when

    try:
        deadline = parse_when(args.deadline) if args.deadline else None
    except ValueError:
        raise BadOption(t("cmd.grade.bad_deadline", value=args.deadline)) from None
    try:
        grace = parse_duration(args.grace)
    except ValueError:
        raise BadOption(t("cmd.grade.bad_number", option="--grace", value=args.grace)) from None
    penalty, cap = (percent(option, text) for option, text in (("--late-penalty", args.late_penalty),
                                                                ("--late-cap", args.late_cap)))
    if penalty and deadline is None:
        raise BadOption(t("cmd.grade.penalty_without_deadline"))
    return LatePolicy(deadline, grace, penalty, cap)


def percent(option: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1
    if not math.isfinite(value) or not 0 <= value <= 100:
        raise BadOption(t("cmd.grade.bad_percent", option=option, value=text))
    return value


def jobs_can_import(course, out: Path) -> None:
    """Before the batch: one job in the sandbox (bubblewrap; as root, its own user) imports what grading needs;
    BadOption with the fix when it cannot (otherwise every job would die as a grader failure)."""
    from celerylab.course import PACKAGE
    from celerylab.grader.job_supervisor import probe
    from celerylab.grader.sandbox.bwrap import NoSandbox, binary

    try:
        binary()
    except NoSandbox as error:
        raise BadOption(t("cmd.grade.no_sandbox", error=error)) from None
    from celerylab.grader.job_supervisor import ProbeFailed

    try:
        log = probe(course)
    except ProbeFailed as failed:
        kept = out / "logs" / "probe.log"
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_text(failed.log, encoding="utf-8")
        detail = " ".join(failed.detail.split())[-600:]
        raise BadOption(t("cmd.grade.no_database", error=detail, log=kept)) from None
    if log is None:
        return
    from celerylab.grader.interpreter import foreign_base

    lines = [line for line in log.splitlines() if "Error" in line] or log.splitlines()[-1:] or ["?"]
    kept = out / "logs" / "probe.log"
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_text(log, encoding="utf-8")
    uid = "3000000+" if os.geteuid() == 0 else str(os.geteuid())
    # A venv whose base Python this user cannot read runs on another Python: name that folder, not the package
    # (the import error it causes, say a missing async_timeout, is the machine's installation, not the course's)
    foreign = foreign_base()
    error, path = (foreign.detail(), foreign.base) if foreign else (lines[-1].strip(), PACKAGE.parent)
    raise BadOption(t("cmd.grade.cannot_import", uid=uid, error=error, path=path, log=kept))


def run(args) -> int:
    from celerylab.grader import unused_imports

    unused_imports.refuse()  # jsonschema's format checkers: costly imports grading never uses
    from celerylab.grader.batch import Options, grade
    from celerylab.grader.prepare import Limits

    where = Path(args.submissions)
    try:
        if not where.exists():
            raise BadOption(t("cmd.grade.missing", path=where))
        jobs = positive("--jobs", args.jobs, int)
        limits = Limits(cell_timeout=positive("--cell-timeout", args.cell_timeout),
                        notebook_timeout=positive("--notebook-timeout", args.notebook_timeout))
        out = writable_folder(args.out)
        late, roster = late_policy(args), None
        assignments = canvas_assignments(args.canvas_assignment)
        if args.roster:
            from celerylab.grader.roster import RosterError, read

            try:
                roster = read(args.roster)
            except RosterError as problem:
                raise BadOption(str(problem)) from None
        if late.deadline is not None and not any(row.get("submitted") for row in (roster or {}).values()):
            print(t("cmd.grade.deadline_by_mtime"), file=sys.stderr)  # a file's time is the learner's to set
        if args.broker:
            from celerylab.grader.remote import BrokerProblem, connect

            try:
                connect(args.broker)
            except BrokerProblem as problem:
                raise BadOption(str(problem)) from None
        course = command_course(args)
        if not args.broker and not args.unsafe_no_sandbox:
            jobs_can_import(course, out)
    except BadOption as problem:
        print(str(problem), file=sys.stderr)
        return 2
    if args.unsafe_no_sandbox:
        print(t("grading.unsafe_no_sandbox"), file=sys.stderr)
    options = Options(out=out, sandbox=not args.unsafe_no_sandbox, jobs=jobs, broker=args.broker,
                      exercises_dir=Path(args.exercises) if args.exercises else None,
                      course=course, limits=limits, force=args.force, late=late, roster=roster,
                      csv_sep=csv_separator(args.csv_sep), exports=tuple(args.export), canvas_assignments=assignments)
    summary = grade(where, options)
    print(t("cmd.grade.summary", graded=summary.graded, rejected=summary.rejected, skipped=summary.skipped,
            failed=summary.failed, out=out.resolve()))
    return 0
