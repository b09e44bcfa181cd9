"""Gradescope's autograder results.json for one graded submission, and the folder each submission's file goes in."""
from __future__ import annotations

from urllib.parse import quote

from celerylab.checks.render import criterion_text
from celerylab.grader.entry import Entry
from celerylab.i18n import t


def gradescope(entry: Entry, order: list) -> dict:
    """Gradescope's autograder results.json for one submission: each exercise's points in course order, a
    test per criterion (hidden ones visible only once grades are published), and the late penalty as a test
    of its own, so that the tests add up to the score."""
    lang = entry.lang or "pt"
    titles = {info.id: (info.title or {}).get(lang) or info.name for info in order}
    rank = {info.id: index for index, info in enumerate(order)}
    tests = []
    for exercise in sorted(entry.exercises, key=lambda name: (rank.get(name, len(rank)), name)):
        scored = entry.exercises[exercise]
        tests.append({"name": f"{exercise} — {titles.get(exercise, exercise)}", "score": scored.points,
                      "max_score": scored.max, "visibility": "visible", "output": scored.verdict.error or ""})
        for criterion in scored.verdict.criteria:
            label = criterion.label(lang)
            tests.append({"name": f"{exercise}: {label}", "status": "passed" if criterion.passed else "failed",
                          "visibility": "after_published" if criterion.hidden else "visible",
                          "output": criterion_text(criterion, lang)})
    reason = entry.reason or {}
    output = [t(reason["key"], lang=lang, **reason.get("values", {}))] if reason.get("key") else []
    late = entry.late or {}
    if late.get("days"):
        raw = entry.total if entry.raw_total is None else entry.raw_total
        explained = t("grading.feedback.late", lang=lang, days=late["days"], percent=f"{late.get('percent_off', 0):g}",
                      raw=raw)
        output.append(explained)
        penalty = round(entry.total - raw, 2)
        tests.append({"name": t("grading.export.late_test", lang=lang), "score": penalty, "max_score": 0,
                      "visibility": "visible", "output": explained})
    return {"score": entry.total, "visibility": "visible", "output": "\n".join(output), "tests": tests}


def gradescope_folder(key: str) -> str:
    """One path component per submission key, different for different keys (``a`` and ``a/results.json``)."""
    return quote(key, safe="")
