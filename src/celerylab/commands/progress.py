"""`celerylab progress`: every exercise of the course, done / failing / not started, and hints seen."""
from __future__ import annotations

from celerylab.commands._common import add_lang, add_lessons_dir, command_course, exercise_title
from celerylab.i18n import t

MARKS = {"passed": "✅", "failing": "❌", "not-started": "·"}


def register(subparsers) -> None:
    parser = subparsers.add_parser("progress", help=t("cmd.progress.help"))
    add_lessons_dir(parser)
    add_lang(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    from celerylab.checks.learner_state import LearnerState

    course = command_course(args)
    exercises, progress = course.all_exercises(), LearnerState(course=course)
    if not exercises:
        print(t("cmd.progress.empty"))
        return 0
    counts = {"passed": 0, "failing": 0, "not-started": 0}
    for info in exercises:
        status = progress.status(info.id)
        counts[status] = counts.get(status, 0) + 1
        print(t("cmd.progress.line", mark=MARKS.get(status, "·"), exercise=info.id, status=t(f"status.{status}"),
                hints=progress.hints_shown(info.id), total=len(info.hints), title=exercise_title(info)))
    print(t("cmd.progress.summary", done=counts["passed"], count=len(exercises), failing=counts["failing"],
            todo=counts["not-started"]))
    print(t("cmd.progress.per_language"))
    return 0
