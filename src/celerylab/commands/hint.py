"""`celerylab hint EXERCISE`: reveal the next hint level of one exercise."""
from __future__ import annotations

from celerylab.commands._common import add_lang, exercise_or_none
from celerylab.i18n import t


def register(subparsers) -> None:
    parser = subparsers.add_parser("hint", help=t("cmd.hint.help"))
    parser.add_argument("exercise", help=t("cmd.exercise"))
    add_lang(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    from celerylab.grading.hints import next_hint

    info = exercise_or_none(args.exercise)
    if info is None:
        return 2
    print(next_hint(info))
    return 0
