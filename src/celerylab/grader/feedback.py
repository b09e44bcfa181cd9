"""The learner's feedback report (Markdown) in their language; hidden checks are never shown."""
from __future__ import annotations

from pathlib import Path

from celerylab.course import Exercise
from celerylab.atomic import write_text
from celerylab.i18n import t


def criterion_line(criterion: dict, lang: str) -> str:
    mark = "✔" if criterion.get("passed") else "✘"
    label = (criterion.get("labels") or {}).get(lang) or str(criterion.get("key"))
    line = "- " + t("check.criterion", lang=lang, mark=mark, label=label,
                    expected=criterion.get("expected"), observed=criterion.get("observed"))
    if criterion.get("cause") and not criterion.get("passed"):
        line += " — " + t("check.cause", lang=lang, cause=criterion["cause"])
    return line


def note_line(note: dict, lang: str) -> str:
    cell = note.get("cell")
    values = {k: v for k, v in note.items() if k not in ("kind", "cell")}
    return "- " + t(f"grading.note.{note.get('kind')}", lang=lang, cell=cell if cell is not None else "-", **values)


def exercise_section(info: Exercise, scored: dict, lang: str) -> list[str]:
    title = info.title.get(lang) or info.title.get("pt") or info.name if isinstance(info.title, dict) else info.name
    lines = ["", f"## {info.id} — {title}", "",
             t("grading.feedback.points", lang=lang, points=scored["points"], max=scored["max"]), ""]
    visible = [criterion for criterion in scored.get("criteria", []) if not criterion.get("hidden")]
    lines += [criterion_line(criterion, lang) for criterion in visible]
    if scored.get("error"):
        lines.append("- " + t("check.error", lang=lang, error=scored["error"]))
    if scored.get("crashed"):
        lines.append("- " + t("grading.feedback.crashed", lang=lang))
    if scored.get("tampered"):
        lines.append("- " + t("grading.feedback.tampered", lang=lang))
    hidden_failed = any(c.get("hidden") and not c.get("passed") for c in scored.get("criteria", []))
    if hidden_failed and all(c.get("passed") for c in visible):
        lines.append("- " + t("grading.feedback.hidden_failed", lang=lang))
    return lines


def render(entry: dict, exercises: list[Exercise], lang: str) -> str:
    """The whole report for one submission."""
    lesson = entry.get("lesson") or t("grading.feedback.unknown_lesson", lang=lang)
    lines = [f"# {t('grading.feedback.title', lang=lang, lesson=lesson)}", "",
             t("grading.feedback.file", lang=lang, file=entry.get("file"))]
    if entry.get("max"):  # a rejected file of no known lesson has no maximum: no "0/0"
        lines.append(t("grading.feedback.total", lang=lang, total=entry.get("total", 0), max=entry["max"]))
    late = entry.get("late") or {}
    if late.get("days"):
        lines.append(t("grading.feedback.late", lang=lang, days=late["days"], percent=f"{late.get('percent_off', 0):g}",
                       raw=entry.get("raw_total", entry.get("total", 0))))
    reason = entry.get("reason")
    if reason:
        lines += ["", t("grading.feedback.not_graded", lang=lang, reason=t(reason["key"], lang=lang, **reason["values"]))]
    if entry.get("notes"):
        lines += ["", f"### {t('grading.feedback.notes', lang=lang)}", ""]
        lines += [note_line(note, lang) for note in entry["notes"]]
    if entry.get("status") == "graded":
        for info in exercises:
            if info.id in entry.get("exercises", {}):
                lines += exercise_section(info, entry["exercises"][info.id], lang)
    return "\n".join(lines) + "\n"


def write(out: Path, entry: dict, exercises: list[Exercise]) -> Path:
    path = Path(out) / "feedback" / f"{entry['key']}.md"
    return write_text(path, render(entry, exercises, entry.get("lang") or "pt"))
