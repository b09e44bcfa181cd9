"""Per-criterion statistics across the class: which criterion most learners fail, in course order.

A row is one criterion of one exercise, keyed by what the check named it (its catalog key, or its own
``{pt, en}`` text before any value is filled in), so a label that embeds a measurement ("voltou após
1.2 s") never splits a criterion into several rows; what the submissions observed gets its own column.
A hidden criterion repeats a visible one with other inputs: it has a row of its own. Each submission counts
once per row (passed when every case of that row passed), so no count exceeds the graded submissions.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from celerylab.grader.csv_cells import csv_text
from celerylab.i18n import get_lang

if TYPE_CHECKING:
    from celerylab.checks.verdict import Criterion
    from celerylab.grader.entry import Entry

SHOWN_OBSERVED = 5  # the most frequent observed values listed per criterion


def criterion_key(criterion: Criterion, lang: str) -> str:
    key = criterion.key
    if isinstance(key, dict):
        return str(key.get(lang) or next(iter(key.values()), ""))
    return str(key)


def criteria_counts(entries: dict[str, Entry], order: list) -> list[dict]:
    """One row per (exercise, criterion key): how many graded submissions passed and failed it, its most
    common label, and the values observed."""
    lang = get_lang()
    rank = {info.id: index for index, info in enumerate(order)}
    counts: dict[tuple, dict] = {}
    for entry in entries.values():
        if entry.status != "graded":
            continue
        outcome: dict[tuple, bool] = {}  # this submission's cases of each row: passed only if all passed
        for exercise, scored in entry.exercises.items():
            for criterion in scored.verdict.criteria:
                key = criterion_key(criterion, lang)
                row_key = (exercise, key, bool(criterion.hidden))
                row = counts.setdefault(row_key, {"exercise": exercise, "criterion": key, "labels": Counter(),
                                                  "hidden": bool(criterion.hidden),
                                                  "passed": 0, "failed": 0, "observed": Counter()})
                labels = criterion.labels or {}
                row["labels"][labels.get(lang) or next(iter(labels.values()), None) or key] += 1
                row["observed"][str(criterion.observed)] += 1
                outcome[row_key] = outcome.get(row_key, True) and criterion.passed is True
        for row_key, passed in outcome.items():
            counts[row_key]["passed" if passed else "failed"] += 1
    rows = list(counts.values())
    rows.sort(key=lambda row: (rank.get(row["exercise"], len(rank)), row["exercise"], row["hidden"],
                              -row["failed"]))
    return rows


def criteria_csv(entries: dict, order: list, sep: str = ",") -> str:
    rows: list[list] = [["exercise", "criterion", "label", "hidden", "passed", "failed", "failed_percent", "observed"]]
    for row in criteria_counts(entries, order):
        total = row["passed"] + row["failed"]
        share = f"{100 * row['failed'] / total:.0f}" if total else ""
        observed = "; ".join(f"{value} ×{count}" for value, count in row["observed"].most_common(SHOWN_OBSERVED))
        rows.append([row["exercise"], row["criterion"], row["labels"].most_common(1)[0][0],
                     "yes" if row["hidden"] else "no", row["passed"], row["failed"], share, observed])
    return csv_text(rows, sep)
