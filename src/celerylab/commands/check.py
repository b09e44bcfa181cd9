"""`celerylab check [EXERCISE] [--dir FOLDER] [--watch NOTEBOOK]`: live checks from the terminal."""
from __future__ import annotations

import sys
from pathlib import Path

from celerylab.commands._common import add_lang, add_lessons_dir, command_course, exercise_or_none
from celerylab.i18n import t


def register(subparsers) -> None:
    parser = subparsers.add_parser("check", help=t("cmd.check.help"))
    parser.add_argument("exercise", nargs="?", help=t("cmd.exercise"))
    parser.add_argument("--dir", metavar="FOLDER", help=t("cmd.check.dir"))
    parser.add_argument("--watch", metavar="NOTEBOOK", help=t("cmd.check.watch"))
    add_lessons_dir(parser)
    add_lang(parser)
    parser.set_defaults(run=run)


def answer_location(args, modules: list[str], course) -> Path | None:
    """The folder to check: `--dir` as given, else where the learner's answer cells wrote (said when it is not
    the current folder); None, after saying where it looked, when no answer module exists anywhere."""
    from celerylab.checks.locate import answer_folder, answer_folders
    from celerylab.i18n import get_lang

    if args.dir:
        return Path(args.dir)
    lang = getattr(args, "lang", None) or get_lang()
    found = answer_folder(modules, lang, course=course)
    if found is None:
        looked = ", ".join(str(folder) for folder in answer_folders(lang, course=course))
        print(t("cmd.check.none_found", folder=looked, modules=", ".join(modules[:3])), file=sys.stderr)
        return None
    if found.resolve() != Path.cwd().resolve():
        print(t("cmd.check.found_in", folder=found))
    return found


def folder_language(folder: Path, course) -> str | None:
    """The language whose exercises notebooks write their answers into `folder` (``exercises/<lang>``), if any:
    progress found there is that language's, whatever language the terminal speaks."""
    from celerylab.checks.locate import candidate_folders
    from celerylab.i18n import LANGS

    for base in candidate_folders("exercises", None, course):
        for lang in LANGS:
            if (base / lang).is_dir() and folder.resolve() == (base / lang).resolve():
                return lang
    return None


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
    from celerylab.checks.learner_state import LearnerState

    pool = course.all_exercises()
    if args.exercise:
        info = exercise_or_none(args.exercise, course)
        if info is None:
            return 2
        pool = [info]
    folder = answer_location(args, [f"{info.module}.py" for info in pool], course)
    if folder is None:
        return 1
    chosen = [info for info in pool if (folder / f"{info.module}.py").exists()] if not args.exercise else pool
    passed, counted = True, counts(folder_variant(folder))  # the lesson's folder holds solved modules
    answers_lang = folder_language(folder, course)
    progress = LearnerState(lang=answers_lang, course=course) if answers_lang else None
    for info in chosen:
        verdict, text = check_and_record(info, folder, course=course, counted=counted, progress=progress)
        print(text)
        passed = passed and verdict.passed
    return 0 if passed else 1
