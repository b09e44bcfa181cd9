"""Helpers the learner and grading subcommands share: the --lang option and exercise lookup."""
from __future__ import annotations

import argparse
import sys

from celerylab.i18n import LANGS, t


def add_lang(parser: argparse.ArgumentParser) -> None:
    """`--lang` after the subcommand too (``celerylab check --lang en``), without hiding the global one."""
    parser.add_argument("--lang", choices=LANGS, default=argparse.SUPPRESS, help=t("cmd.lang"))


def add_exercise_command(subparsers, name: str, help_key: str, run,
                         optional: bool = False) -> argparse.ArgumentParser:
    """A subcommand that takes one EXERCISE (optional: it may be left out) and --lang, and calls `run(args)`."""
    parser = subparsers.add_parser(name, help=t(help_key))
    parser.add_argument("exercise", help=t("cmd.exercise"), **({"nargs": "?"} if optional else {}))
    add_lang(parser)
    parser.set_defaults(run=run)
    return parser


def exercise_title(info) -> str:
    """An exercise's title in the current language (the other one, or "", when it has none)."""
    from celerylab.i18n import get_lang

    return info.title.get(get_lang()) or next(iter(info.title.values()), "")


def print_exercise_list() -> None:
    """Every exercise of the course, one line each on stdout: its id and title."""
    from celerylab.course import all_exercises

    for info in all_exercises():
        print(t("cmd.exercise_line", exercise=info.id, title=exercise_title(info)))


def exercise_or_none(exercise_id: str):
    """The exercise named `exercise_id`, or None after printing a readable error."""
    from celerylab.course import find_exercise

    try:
        return find_exercise(exercise_id)
    except KeyError:
        print(t("cmd.unknown_exercise", exercise=exercise_id), file=sys.stderr)
        return None
