"""`celerylab grade SUBMISSIONS --out DIR [--jobs N] [--broker URL]`: the instructor's batch grader."""
from __future__ import annotations

import sys
from pathlib import Path

from celerylab.commands._common import add_lang
from celerylab.i18n import t


def register(subparsers) -> None:
    parser = subparsers.add_parser("grade", help=t("cmd.grade.help"))
    parser.add_argument("submissions", help=t("cmd.grade.submissions"))
    parser.add_argument("--out", required=True, metavar="DIR", help=t("cmd.grade.out"))
    parser.add_argument("--jobs", type=int, default=1, metavar="N", help=t("cmd.grade.jobs"))
    parser.add_argument("--broker", metavar="URL", help=t("cmd.grade.broker"))
    parser.add_argument("--exercises", metavar="DIR", help=t("cmd.grade.exercises"))
    parser.add_argument("--course", metavar="DIR", help=t("cmd.grade.course"))
    parser.add_argument("--cell-timeout", type=float, default=120, metavar="S", help=t("cmd.grade.cell_timeout"))
    parser.add_argument("--notebook-timeout", type=float, default=600, metavar="S",
                        help=t("cmd.grade.notebook_timeout"))
    add_lang(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    sys.modules.setdefault("rfc3987_syntax", None)  # see grading/job.py: a costly import grading never uses
    from celerylab.grading.grader import Options, grade
    from celerylab.grading.prepare import Limits

    where = Path(args.submissions)
    if not where.exists():
        print(t("cmd.grade.missing", path=where), file=sys.stderr)
        return 2
    limits = Limits(cell_timeout=args.cell_timeout, notebook_timeout=args.notebook_timeout)
    options = Options(out=Path(args.out), jobs=max(1, args.jobs), broker=args.broker,
                      exercises_dir=Path(args.exercises) if args.exercises else None,
                      root=args.course, limits=limits)
    summary = grade(where, options)
    print(t("cmd.grade.summary", graded=summary.graded, rejected=summary.rejected, skipped=summary.skipped,
            failed=summary.failed, out=Path(args.out).resolve()))
    return 0
