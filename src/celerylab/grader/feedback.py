"""The learner's feedback report (Markdown) in their language; hidden checks are never shown."""
from __future__ import annotations

import html
from pathlib import Path

from celerylab.atomic import write_text
from celerylab.checks.render import criterion_line
from celerylab.course import Exercise
from celerylab.grader.entry import Entry, ScoredExercise
from celerylab.grader.names import safe_text
from celerylab.i18n import t

# Reasons that mean the file itself is damaged or not the course's notebook: the learner can fix those by handing
# in the exercises notebook again, with their answers copied in.
DAMAGED_FILE = {"grading.reason.invalid_json", "grading.reason.not_notebook", "grading.reason.nbformat",
                "grading.reason.nbformat_minor", "grading.reason.invalid_notebook", "grading.reason.unreadable",
                "grading.reason.duplicate_ids", "grading.reason.too_deep", "grading.reason.too_many_cells",
                "grading.reason.too_large", "grading.reason.no_lesson", "grading.reason.not_exercises"}


def note_line(note: dict, lang: str) -> str:
    cell = note.get("cell")
    values = {k: v for k, v in note.items() if k not in ("kind", "cell")}
    return "- " + t(f"grading.note.{note.get('kind')}", lang=lang, cell=cell if cell is not None else "-", **values)


def exercise_section(info: Exercise, scored: ScoredExercise, lang: str) -> list[str]:
    title = info.title.get(lang) or info.title.get("pt") or info.name if isinstance(info.title, dict) else info.name
    verdict = scored.verdict
    lines = ["", f"## {info.id} — {title}", "",
             t("grading.feedback.points", lang=lang, points=scored.points, max=scored.max), ""]
    visible = verdict.visible()
    lines += ["- " + criterion_line(criterion, lang, cause_sep=" — ") for criterion in visible]
    if verdict.error:
        lines.append("- " + t("check.error", lang=lang, error=verdict.error))
    if verdict.crashed:
        lines.append("- " + t("grading.feedback.crashed", lang=lang))
    if verdict.tampered:
        lines.append("- " + t("grading.feedback.tampered", lang=lang))
    if verdict.hidden_failed() and all(c.passed for c in visible):
        lines.append("- " + t("grading.feedback.hidden_failed", lang=lang))
    return lines


def render(entry: Entry, exercises: list[Exercise], lang: str) -> str:
    """The whole report for one submission."""
    lesson = entry.lesson or t("grading.feedback.unknown_lesson", lang=lang)
    lines = [f"# {t('grading.feedback.title', lang=lang, lesson=lesson)}", "",
             t("grading.feedback.file", lang=lang, file=entry.file)]
    if entry.max:  # a rejected file of no known lesson has no maximum: no "0/0"
        lines.append(t("grading.feedback.total", lang=lang, total=entry.total, max=entry.max))
    late = entry.late or {}
    if late.get("days"):
        lines.append(t("grading.feedback.late", lang=lang, days=late["days"], percent=f"{late.get('percent_off', 0):g}",
                       raw=entry.total if entry.raw_total is None else entry.raw_total))
    if entry.reason:
        reason = entry.reason
        lines += ["", t("grading.feedback.not_graded", lang=lang, reason=t(reason["key"], lang=lang, **reason["values"]))]
        if reason["key"] in DAMAGED_FILE:
            lines += ["", t("grading.feedback.damaged_next_step", lang=lang)]
    if entry.notes:
        lines += ["", f"### {t('grading.feedback.notes', lang=lang)}", ""]
        lines += [note_line(note, lang) for note in entry.notes]
    if entry.status == "graded":
        for info in exercises:
            if info.id in entry.exercises:
                lines += exercise_section(info, entry.exercises[info.id], lang)
    return markdown_safe("\n".join(lines)) + "\n"


def markdown_safe(text: str) -> str:
    """`text` as a Markdown viewer shows it, never runs it: HTML escaped (a ``<script>`` from a cell's error stays
    text), control characters escaped (no terminal escape sequence from `cat`)."""
    return html.escape(safe_text(text), quote=False)


def write(out: Path, entry: Entry, exercises: list[Exercise]) -> Path:
    path = Path(out) / "feedback" / f"{entry.key}.md"
    return write_text(path, render(entry, exercises, entry.lang or "pt"))
