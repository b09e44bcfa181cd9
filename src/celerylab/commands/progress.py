"""`celerylab progress`: every exercise of the course, done / failing / not started, and hints seen."""
from __future__ import annotations

from celerylab.commands._common import add_lang, exercise_title
from celerylab.i18n import t

MARKS = {"passed": "✅", "failing": "❌", "not-started": "·"}


def register(subparsers) -> None:
    parser = subparsers.add_parser("progress", help=t("cmd.progress.help"))
    add_lang(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    from celerylab.course import all_exercises
    from celerylab.checks.learner_state import LearnerState

    course, progress = all_exercises(), LearnerState()
    if not course:
        print(t("cmd.progress.empty"))
        return 0
    counts = {"passed": 0, "failing": 0, "not-started": 0}
    for info in course:
        status = progress.status(info.id)
        counts[status] = counts.get(status, 0) + 1
        print(t("cmd.progress.line", mark=MARKS.get(status, "·"), exercise=info.id, status=t(f"status.{status}"),
                hints=progress.hints_shown(info.id), total=len(info.hints), title=exercise_title(info)))
    print(t("cmd.progress.summary", done=counts["passed"], count=len(course), failing=counts["failing"],
            todo=counts["not-started"]))
    return 0
