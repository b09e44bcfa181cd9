"""`celerylab hint EXERCISE`: reveal the next hint level of one exercise."""
from __future__ import annotations

import sys

from celerylab.commands._common import add_exercise_command, command_course, exercise_or_none, print_exercise_list
from celerylab.i18n import t


def register(subparsers) -> None:
    add_exercise_command(subparsers, "hint", "cmd.hint.help", run, optional=True)


def run(args) -> int:
    from celerylab.checks.hints import next_hint

    course = command_course(args)
    if not args.exercise:  # `celerylab hint` alone: which exercises there are, and how to ask
        print(t("cmd.hint.which"), file=sys.stderr)
        print_exercise_list(course)
        return 2
    info = exercise_or_none(args.exercise, course)
    if info is None:
        return 2
    print(next_hint(info, course=course))
    return 0
