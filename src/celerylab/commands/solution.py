"""`celerylab solution EXERCISE`: the solved cell, offered only once the exercise has passed."""
from __future__ import annotations

import sys

from celerylab.commands._common import add_exercise_command, command_course, exercise_or_none
from celerylab.i18n import get_lang, t


def register(subparsers) -> None:
    parser = add_exercise_command(subparsers, "solution", "cmd.solution.help", run)
    parser.add_argument("--solutions", metavar="FOLDER", help=t("cmd.solution.dir"))


def run(args) -> int:
    from celerylab.checks.learner_state import LearnerState
    from celerylab.checks.solutions import solution_code

    course = command_course(args)
    info = exercise_or_none(args.exercise, course)
    if info is None:
        return 2
    if not LearnerState(course=course).passed(info.id):
        print(t("cmd.solution.locked", exercise=info.id), file=sys.stderr)
        return 1
    code = solution_code(info, get_lang(), args.solutions, course=course)
    if code is None:
        print(t("cmd.solution.missing", exercise=info.id, folder=args.solutions or f"solutions/{get_lang()}"),
              file=sys.stderr)
        return 1
    print(t("cmd.solution.header", exercise=info.id))
    print(code)
    return 0
