"""`celerylab grade SUBMISSIONS --out DIR [--jobs N] [--broker URL]`: the instructor's batch grader."""
from __future__ import annotations

import math
import sys
import tempfile
from pathlib import Path

from celerylab.commands._common import add_lang
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
    parser.add_argument("--course", metavar="DIR", help=t("cmd.grade.course"))
    parser.add_argument("--cell-timeout", default="120", metavar="S", help=t("cmd.grade.cell_timeout"))
    parser.add_argument("--notebook-timeout", default="600", metavar="S", help=t("cmd.grade.notebook_timeout"))
    add_lang(parser)
    parser.set_defaults(run=run)


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


def run(args) -> int:
    sys.modules.setdefault("rfc3987_syntax", None)  # see grading/job.py: a costly import grading never uses
    from celerylab.grading.grader import Options, grade
    from celerylab.grading.prepare import Limits

    where = Path(args.submissions)
    try:
        if not where.exists():
            raise BadOption(t("cmd.grade.missing", path=where))
        jobs = positive("--jobs", args.jobs, int)
        limits = Limits(cell_timeout=positive("--cell-timeout", args.cell_timeout),
                        notebook_timeout=positive("--notebook-timeout", args.notebook_timeout))
        out = writable_folder(args.out)
        if args.broker:
            from celerylab.grading.remote import BrokerProblem, connect

            try:
                connect(args.broker)
            except BrokerProblem as problem:
                raise BadOption(str(problem)) from None
    except BadOption as problem:
        print(str(problem), file=sys.stderr)
        return 2
    options = Options(out=out, jobs=jobs, broker=args.broker,
                      exercises_dir=Path(args.exercises) if args.exercises else None,
                      root=args.course, limits=limits)
    summary = grade(where, options)
    print(t("cmd.grade.summary", graded=summary.graded, rejected=summary.rejected, skipped=summary.skipped,
            failed=summary.failed, out=out.resolve()))
    return 0
