"""A learner's check: run it, remember the outcome; on failure, offer a hint (or the next one, once asked for)."""
from __future__ import annotations

import os
from pathlib import Path

from celerylab.course import find_exercise
from celerylab.grading.engine import Verdict, run_check
from celerylab.grading.hints import next_hint
from celerylab.grading.learner_state import LearnerState
from celerylab.i18n import get_lang, t

GRADING_ENV = "CELERYLAB_GRADING"
HIDDEN_ENV = "CELERYLAB_CHECK_HIDDEN"  # "1" in course builds and nbval: a notebook's check runs its hidden criteria too


def grading_in_progress() -> bool:
    """True inside a notebook the instructor grader runs: there verdicts are decided outside the kernel."""
    return os.environ.get(GRADING_ENV) == "1"


def check_and_record(exercise_id: str, workdir: str | Path = ".", lang: str | None = None,
                     root: str | Path | None = None, progress: LearnerState | None = None) -> tuple[Verdict, str]:
    """Check one exercise, record the result, and return the verdict and the feedback text to print."""
    lang = lang or get_lang()
    info = find_exercise(exercise_id, root)
    verdict: Verdict = run_check(info.id, workdir, root=root,
                                  include_hidden=os.environ.get(HIDDEN_ENV) == "1")
    progress = progress or LearnerState()
    progress.record(info.id, verdict.passed)
    hint = None
    if not verdict.passed and progress.hints_shown(info.id) > 0:
        hint = next_hint(info, progress, lang)
    elif not verdict.passed and info.hints:
        hint = t("grading.hint_offer", lang=lang, exercise=info.id, count=len(info.hints))
    text = verdict.render(lang)
    return verdict, (f"{text}\n{hint}" if hint else text)
