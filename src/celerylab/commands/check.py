"""`celerylab check [EXERCISE] [--dir FOLDER] [--watch NOTEBOOK]`: live checks from the terminal."""
from __future__ import annotations

import sys
from pathlib import Path

from celerylab.commands._common import add_lang, add_lessons_dir, command_course, exercise_or_none
from celerylab.i18n import t


def register(subparsers) -> None:
    parser = subparsers.add_parser("check", help=t("cmd.check.help"))
    parser.add_argument("exercise", nargs="?", help=t("cmd.exercise"))
    parser.add_argument("--dir", default=".", metavar="FOLDER", help=t("cmd.check.dir"))
    parser.add_argument("--watch", metavar="NOTEBOOK", help=t("cmd.check.watch"))
    add_lessons_dir(parser)
    add_lang(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    course = command_course(args)
    if args.watch:
        from celerylab.checks.watch import watch

        if not Path(args.watch).is_file():
            print(t("cmd.check.no_notebook", path=args.watch), file=sys.stderr)
            return 2
        watch(args.watch, getattr(args, "lang", None), course=course)
        return 0
    from celerylab.checks.check_origin import counts, folder_variant
    from celerylab.checks.learner import check_and_record

    folder = Path(args.dir)
    if args.exercise:
        info = exercise_or_none(args.exercise, course)
        if info is None:
            return 2
        chosen = [info]
    else:
        chosen = [info for info in course.all_exercises() if (folder / f"{info.module}.py").exists()]
        if not chosen:
            print(t("cmd.check.none_found", folder=folder.resolve()), file=sys.stderr)
            return 1
    passed, counted = True, counts(folder_variant(folder))  # the lesson's folder holds solved modules
    for info in chosen:
        verdict, text = check_and_record(info, folder, course=course, counted=counted)
        print(text)
        passed = passed and verdict.passed
    return 0 if passed else 1
