"""A learner's check: run it, remember the outcome when it is the learner's own work, say what comes next."""
from __future__ import annotations

import os
from pathlib import Path

from celerylab.checks.check_run import run_check
from celerylab.checks.learner_state import LearnerState
from celerylab.checks.render import verdict_text
from celerylab.checks.solutions import after_notes
from celerylab.checks.verdict import Verdict
from celerylab.course import Course, Exercise
from celerylab.i18n import get_lang, t

GRADING_ENV = "CELERYLAB_GRADING"
HIDDEN_ENV = "CELERYLAB_CHECK_HIDDEN"  # "1" in course builds and nbval: a notebook's check runs its hidden criteria too


def grading_in_progress() -> bool:
    """True inside a notebook the instructor grader runs: there verdicts are decided outside the kernel."""
    return os.environ.get(GRADING_ENV) == "1"


def course_build() -> bool:
    """True in a course build or nbval run: those execute the lesson, whose passes are nobody's progress."""
    return os.environ.get(HIDDEN_ENV) == "1"


def hint_reminder(info: Exercise, progress: LearnerState, lang: str) -> str | None:
    """After a failure: how to ask for a hint. A check never reveals one by itself (hints come on request)."""
    shown, total = progress.hints_shown(info.id), len(info.hints)
    if not total:
        return None
    if shown == 0:
        return t("grading.hint_offer", lang=lang, exercise=info.id, count=total)
    if shown < total:
        return t("grading.hint_more", lang=lang, exercise=info.id, shown=shown, count=total)
    return t("grading.hint_all_seen", lang=lang, exercise=info.id, count=total)


def next_step(info: Exercise, progress: LearnerState, lang: str, *, course: Course) -> str:
    """After a pass: an exercise of this lesson not yet passed (the later ones first, then the earlier ones),
    else the next lesson's, else the end."""
    order = course.all_exercises()
    later = order[order.index(info) + 1:] + order[:order.index(info)] if info in order else order
    todo = [other for other in later if not progress.passed(other.id)]
    if not todo:
        return t("grading.next.done", lang=lang)
    same_lesson = [other for other in todo if other.lesson == info.lesson]
    upcoming = same_lesson[0] if same_lesson else todo[0]
    title = upcoming.title.get(lang) or upcoming.title.get("pt") or upcoming.name
    if upcoming.lesson == info.lesson:
        return t("grading.next.exercise", lang=lang, exercise=upcoming.id, title=title)
    notebook = course.notebook_path(upcoming.lesson, lang, "exercises")
    return t("grading.next.lesson", lang=lang, exercise=upcoming.id, title=title,
             notebook=f"{notebook.parent.parent.name}/{lang}/{notebook.name}")


def check_and_record(info: Exercise, workdir: str | Path = ".", lang: str | None = None, *, course: Course,
                     progress: LearnerState | None = None, counted: bool = True,
                     notebook: str | Path | None = None) -> tuple[Verdict, str]:
    """Check one exercise of `course` and return the verdict and the feedback text to print.

    The outcome is recorded only when `counted` (the exercises notebook or the terminal, not the lesson's
    solved cells, not a course build) and the answer exists (a missing module is not an attempt).
    """
    lang = lang or get_lang()
    verdict: Verdict = run_check(info, workdir, include_hidden=course_build(), notebook=notebook)
    counted = counted and not course_build() and not verdict.missing_module
    progress = progress or LearnerState(lang=lang, course=course)
    if counted:
        progress.record(info.id, verdict.passed)
    lines = [verdict_text(verdict, lang)]
    if not verdict.passed and not verdict.missing_module:
        lines.append(hint_reminder(info, progress, lang))
    elif verdict.passed and counted:
        lines += after_notes(info, lang, course=course)
        lines.append(next_step(info, progress, lang, course=course))
    return verdict, "\n".join(line for line in lines if line)
