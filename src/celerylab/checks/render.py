"""A verdict as the learner reads it, in their language: the title, one line per visible criterion, why it failed."""
from __future__ import annotations

import re

from celerylab.checks.verdict import Criterion, Verdict
from celerylab.i18n import get_lang, t

UNFINISHED_STATES = {"PENDING", "RECEIVED", "STARTED", "RETRY"}  # a task still running, or never picked up
STATE_LIST = re.compile(r"\A[\s\[\]\(\),'\"A-Z]*\Z")


def never_finished(observed: object) -> bool:
    """True when what a criterion observed is only a task's unfinished states (``PENDING`` or
    ``['PENDING', 'STARTED']``): the task was still running, or never started, when the check stopped waiting."""
    text = str(observed)
    states = set(re.findall(r"[A-Z]+", text))
    return bool(states) and states <= UNFINISHED_STATES and bool(STATE_LIST.match(text))


def criterion_text(criterion: Criterion, lang: str) -> str:
    """``✔ label (expected …, observed …)``: the words every report of a criterion shares."""
    return t("check.criterion", lang=lang, mark="✔" if criterion.passed else "✘", label=criterion.label(lang),
             expected=criterion.expected, observed=criterion.observed)


def criterion_line(criterion: Criterion, lang: str, cause_sep: str = "\n      ") -> str:
    """The criterion's text and, when it failed, what made it fail."""
    line = criterion_text(criterion, lang)
    if criterion.cause and not criterion.passed:
        line += cause_sep + t("check.cause", lang=lang, cause=criterion.cause)
    elif not criterion.passed and never_finished(criterion.observed) and not never_finished(criterion.expected):
        line += cause_sep + t("check.never_finished", lang=lang)
    return line


def reasons(verdict: Verdict, lang: str) -> list[str]:
    """Why a failure failed when no visible line says so: hidden criteria, or nothing checked at all."""
    if verdict.passed or verdict.error:
        return []
    if verdict.hidden_failed():
        return [t("check.hidden_failed", lang=lang, count=verdict.hidden_failed())]
    if not verdict.criteria:
        return [t("check.nothing_checked", lang=lang)]
    return []


def title(verdict: Verdict, lang: str) -> str:
    """❌, or ✅ with the count of criteria shown and of the hidden ones the grader checks (run here or not)."""
    if not verdict.passed:
        return t("check.failed", lang=lang, exercise=verdict.exercise_id)
    more = verdict.deferred + sum(1 for c in verdict.criteria if c.hidden)
    key = {0: "check.passed", 1: "check.passed_one_more"}.get(more, "check.passed_more")
    return t(key, lang=lang, exercise=verdict.exercise_id, count=len(verdict.visible()), more=more)


def verdict_text(verdict: Verdict, lang: str | None = None, hint: str | None = None) -> str:
    """What a check prints: the title, the visible criteria, errors, reasons, and how to ask for a hint."""
    lang = lang or get_lang()
    lines = [title(verdict, lang), *("  " + criterion_line(c, lang) for c in verdict.visible())]
    if verdict.grader_error:
        lines.append("  " + t("check.grader_error", lang=lang, error=verdict.grader_error))
    if verdict.error:
        lines.append("  " + t("check.error", lang=lang, error=verdict.error))
    lines += ["  " + reason for reason in reasons(verdict, lang)]
    if hint and not verdict.passed:
        lines.append("  " + t("check.hint", lang=lang, hint=hint))
    return "\n".join(lines)
