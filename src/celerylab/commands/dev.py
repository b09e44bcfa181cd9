"""`celerylab dev check` and `celerylab dev new-lesson NN slug`: the course author's tools."""
from __future__ import annotations

import sys
from pathlib import Path

from celerylab.commands._common import add_lang, add_lessons_dir, command_course
from celerylab.i18n import t


def register(subparsers) -> None:
    parser = subparsers.add_parser("dev", help=t("dev.help"), description=t("dev.help"))
    actions = parser.add_subparsers(dest="dev_command", metavar="COMMAND")
    check = actions.add_parser("check", help=t("dev.check.help"), description=t("dev.check.help"))
    check.add_argument("--lesson", dest="lessons", action="append", metavar="lNN_slug", help=t("dev.opt.lesson"))
    check.add_argument("--no-stale", action="store_true", help=t("dev.opt.no_stale"))
    check.add_argument("--root", type=Path, help=t("dev.opt.root"))
    add_lessons_dir(check, "dev.opt.lessons_dir")
    add_lang(check)
    check.set_defaults(run=run_check)
    new = actions.add_parser("new-lesson", help=t("dev.new.help"), description=t("dev.new.help"))
    new.add_argument("number", metavar="NN", help=t("dev.new.number"))
    new.add_argument("slug", help=t("dev.new.slug"))
    new.add_argument("--title-pt", help=t("dev.new.title_pt"))
    new.add_argument("--title-en", help=t("dev.new.title_en"))
    add_lessons_dir(new, "dev.opt.lessons_dir")
    add_lang(new)
    new.set_defaults(run=run_new_lesson)
    parser.set_defaults(run=lambda args: parser.print_help() or 2)
    from celerylab.cli import translate_argparse  # the top level translates only its direct subcommands

    translate_argparse(check)
    translate_argparse(new)


def run_check(args) -> int:
    from celerylab.authoring.course_check import check_course

    course = command_course(args)
    report = check_course(course, args.root, args.lessons, freshness=not args.no_stale)
    for exempt in report.exempt:  # listed on every run: few, each with its reason in claims.yml
        print(exempt.render())
    for problem in report.problems + report.stale:
        print(problem.render(), file=sys.stderr)
    if not report.ok:
        print(t("dev.check.failed", count=len(report.problems), stale=len(report.stale)), file=sys.stderr)
        return 1
    print(t("dev.check.ok", lessons=report.lessons, exercises=report.exercises, messages=report.messages))
    return 0


def run_new_lesson(args) -> int:
    from celerylab.authoring.scaffold import ScaffoldError, new_lesson

    course = command_course(args)
    course_file = course.course_file
    try:
        folder = new_lesson(args.number, args.slug, course_file, course.lessons_dir, args.title_pt, args.title_en)
    except ScaffoldError as error:
        print(str(error), file=sys.stderr)
        return 2
    print(t("dev.new.created", folder=folder, course=course_file, lesson=folder.name))
    return 0
