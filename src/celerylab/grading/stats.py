"""Per-criterion statistics across the class: which criterion most learners fail, in course order."""
from __future__ import annotations

import csv
import io

from celerylab.i18n import get_lang


def criteria_counts(entries: dict, order: list) -> list[dict]:
    """One row per (exercise, criterion label): how many graded submissions passed and failed it."""
    lang = get_lang()
    rank = {info.id: index for index, info in enumerate(order)}
    counts: dict[tuple, dict] = {}
    for entry in entries.values():
        if entry.get("status") != "graded":
            continue
        for exercise, scored in entry.get("exercises", {}).items():
            for criterion in scored.get("criteria", []):
                labels = criterion.get("labels") or {}
                label = labels.get(lang) or next(iter(labels.values()), None) or str(criterion.get("key"))
                row = counts.setdefault((exercise, label), {"exercise": exercise, "criterion": label,
                                                            "hidden": bool(criterion.get("hidden")),
                                                            "passed": 0, "failed": 0})
                row["passed" if criterion.get("passed") is True else "failed"] += 1
    rows = list(counts.values())
    rows.sort(key=lambda row: (rank.get(row["exercise"], len(rank)), row["exercise"], -row["failed"]))
    return rows


def criteria_csv(entries: dict, order: list, sep: str = ",") -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=sep, lineterminator="\r\n")
    writer.writerow(["exercise", "criterion", "hidden", "passed", "failed", "failed_percent"])
    for row in criteria_counts(entries, order):
        total = row["passed"] + row["failed"]
        share = f"{100 * row['failed'] / total:.0f}" if total else ""
        writer.writerow([row["exercise"], row["criterion"], "yes" if row["hidden"] else "no",
                         row["passed"], row["failed"], share])
    return buffer.getvalue()
