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


def counts(exercises, progress) -> dict[str, int]:
    """How many of `exercises` are passed, failing and not started in `progress`."""
    found = {"passed": 0, "failing": 0, "not-started": 0}
    for info in exercises:
        status = progress.status(info.id)
        found[status] = found.get(status, 0) + 1
    return found


def summary(course, lang: str | None = None, progress=None) -> list[str]:
    """The course's progress in `lang`'s notebooks (`progress`, when already read) in one line, and that the other
    language keeps its own."""
    from celerylab.checks.learner_state import LearnerState

    exercises = course.all_exercises()
    found = counts(exercises, progress or LearnerState(lang=lang, course=course))
    return [t("cmd.progress.summary", lang=lang, done=found["passed"], count=len(exercises), failing=found["failing"],
              todo=found["not-started"]),
            t("cmd.progress.per_language", lang=lang)]


def run(args) -> int:
    from celerylab.checks.learner_state import LearnerState

    course = command_course(args)
    exercises, progress = course.all_exercises(), LearnerState(course=course)
    if not exercises:
        print(t("cmd.progress.empty"))
        return 0
    for info in exercises:
        status = progress.status(info.id)
        print(t("cmd.progress.line", mark=MARKS.get(status, "·"), exercise=info.id, status=t(f"status.{status}"),
                hints=progress.hints_shown(info.id), total=len(info.hints), title=exercise_title(info)))
    for line in summary(course, progress=progress):
        print(line)
    return 0
