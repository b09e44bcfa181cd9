"""Hints, revealed one level at a time and remembered in the learner's progress."""
from __future__ import annotations

from celerylab.checks.learner_state import LearnerState
from celerylab.course import Course, Exercise
from celerylab.i18n import get_lang, t


def hint_text(info: Exercise, level: int, lang: str) -> str:
    texts = info.hints[level - 1]
    return texts.get(lang) or next(iter(texts.values())) if isinstance(texts, dict) else str(texts)


def next_hint(info: Exercise, progress: LearnerState | None = None, lang: str | None = None, *,
              course: Course | None = None) -> str:
    """Reveal the next hint level of `info` and return it, numbered (or say there are none left); the level
    shown is remembered in `progress`, else in the learner's progress of `course`."""
    lang = lang or get_lang()
    progress = progress or LearnerState(lang=lang, course=course)
    if not info.hints:
        return t("hint.none", lang=lang, exercise=info.id)
    already = progress.hints_shown(info.id)
    if already >= len(info.hints):
        lines = [t("hint.all_shown", lang=lang, exercise=info.id, total=len(info.hints))]
        lines += [t("hint.line", lang=lang, level=n, total=len(info.hints), text=hint_text(info, n, lang))
                  for n in range(1, len(info.hints) + 1)]
        return "\n".join(lines)
    level = progress.reveal_hint(info.id, len(info.hints))
    return t("hint.line", lang=lang, level=level, total=len(info.hints), text=hint_text(info, level, lang))
