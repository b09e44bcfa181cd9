"""`celerylab hint EXERCISE`: reveal the next hint level of one exercise."""
from __future__ import annotations

from celerylab.commands._common import add_exercise_command, exercise_or_none


def register(subparsers) -> None:
    add_exercise_command(subparsers, "hint", "cmd.hint.help", run)


def run(args) -> int:
    from celerylab.grading.hints import next_hint

    info = exercise_or_none(args.exercise)
    if info is None:
        return 2
    print(next_hint(info))
    return 0
