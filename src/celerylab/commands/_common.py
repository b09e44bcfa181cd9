"""Helpers the subcommands share: the --lang and --lessons-dir options, the one course of a command, exercise lookup."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from celerylab.i18n import LANGS, t

if TYPE_CHECKING:
    from celerylab.course import Course


def add_lang(parser: argparse.ArgumentParser) -> None:
    """`--lang` after the subcommand too (``celerylab check --lang en``), without hiding the global one."""
    parser.add_argument("--lang", choices=LANGS, default=argparse.SUPPRESS, help=t("cmd.lang"))


def add_lessons_dir(parser: argparse.ArgumentParser, help_key: str = "cmd.lessons_dir") -> None:
    """`--lessons-dir DIR`: the folder of the course's lesson folders (with its course.yml), in every command."""
    parser.add_argument("--lessons-dir", type=Path, metavar="DIR", help=t(help_key))


class DeprecatedOption(argparse.Action):
    """An old option name kept for one release: it sets the new option's value and says which name to use."""

    def __init__(self, option_strings, dest, replacement: str, **kwargs):
        self.replacement = replacement
        super().__init__(option_strings, dest, help=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        print(t("cli.deprecated_option", old=option_string, new=self.replacement), file=sys.stderr)
        setattr(namespace, self.dest, values)


def add_deprecated(parser: argparse.ArgumentParser, old: str, replacement: str, dest: str, **kwargs) -> None:
    """`old` accepted as `replacement` (same `dest`), hidden from --help, with a warning when used."""
    parser.add_argument(old, dest=dest, action=DeprecatedOption, replacement=replacement, **kwargs)


def command_course(args) -> Course:
    """The one course of a command, from its options: --lessons-dir (else the package's), its notebooks under
    $CELERYLAB_ROOT when the lab set it (else beside the lessons). Resolved once, then handed down."""
    from celerylab.course import OUTPUT_ENV, Course

    return Course.at(getattr(args, "lessons_dir", None), os.environ.get(OUTPUT_ENV))


def add_exercise_command(subparsers, name: str, help_key: str, run,
                         optional: bool = False) -> argparse.ArgumentParser:
    """A subcommand that takes one EXERCISE (optional: it may be left out), --lessons-dir and --lang, and calls
    `run(args)`."""
    parser = subparsers.add_parser(name, help=t(help_key))
    parser.add_argument("exercise", help=t("cmd.exercise"), **({"nargs": "?"} if optional else {}))
    add_lessons_dir(parser)
    add_lang(parser)
    parser.set_defaults(run=run)
    return parser


def exercise_title(info) -> str:
    """An exercise's title in the current language (the other one, or "", when it has none)."""
    from celerylab.i18n import get_lang

    return info.title.get(get_lang()) or next(iter(info.title.values()), "")


def print_exercise_list(course: Course) -> None:
    """Every exercise of the course, one line each on stdout: its id and title."""
    for info in course.all_exercises():
        print(t("cmd.exercise_line", exercise=info.id, title=exercise_title(info)))


def exercise_or_none(exercise_id: str, course: Course):
    """The exercise of `course` named `exercise_id`, or None after printing a readable error."""
    try:
        return course.find_exercise(exercise_id)
    except KeyError:
        print(t("cmd.unknown_exercise", exercise=exercise_id), file=sys.stderr)
        return None
