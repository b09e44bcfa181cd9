"""The gradebook: one entry per submission, saved atomically as JSON, a spreadsheet CSV and per-criterion statistics."""
from __future__ import annotations

import csv
import io
from pathlib import Path

from celerylab.atomic import read_json, write_json, write_text
from celerylab.i18n import t

BOM = "\ufeff"  # spreadsheet programs read UTF-8 (accents) only with it
COLUMNS = ["learner", "file", "lesson", "lang", "status", "submitted", "late_days", "total", "max", "reason"]


def number(value, sep: str) -> str:
    """A number as the spreadsheet expects it: with `;` as separator (pt-BR), the decimal comma."""
    text = "" if value is None or value == "" else str(value)
    return text.replace(".", ",") if sep == ";" else text


class Gradebook:
    """Entries by submission key; `unchanged()` lets a re-run skip what it already graded."""

    def __init__(self, out: str | Path, order: list | None = None, sep: str = ",", roster: dict | None = None):
        self.out = Path(out)
        self.order, self.sep, self.roster = order or [], sep, roster
        self.json_path, self.csv_path = self.out / "gradebook.json", self.out / "gradebook.csv"
        self.stats_path = self.out / "criteria.csv"
        data = read_json(self.json_path, {})
        self.entries: dict[str, dict] = data.get("submissions", {}) if isinstance(data, dict) else {}

    def unchanged(self, key: str, digest: str) -> bool:
        return self.entries.get(key, {}).get("digest") == digest

    def put(self, key: str, entry: dict, save: bool = True) -> None:
        self.entries[key] = entry
        if save:
            self.save()

    def save(self) -> None:
        write_json(self.json_path, {"version": 1, "submissions": self.entries})
        write_text(self.csv_path, BOM + self.csv())
        from celerylab.grader.stats import criteria_csv

        write_text(self.stats_path, BOM + criteria_csv(self.entries, self.order, self.sep))

    def columns(self) -> list[tuple[str, int | None]]:
        """(exercise id, maximum) in course order; exercises the course no longer has come last."""
        known = [(info.id, info.points) for info in self.order]
        seen = {exercise for exercise, _ in known}
        extra = sorted({e for entry in self.entries.values() for e in entry.get("exercises", {})} - seen)
        maxima = {e: s.get("max") for entry in self.entries.values() for e, s in entry.get("exercises", {}).items()}
        return known + [(exercise, maxima.get(exercise)) for exercise in extra]

    def missing(self) -> list[dict]:
        """Roster learners with no submission: rows of their own, status "missing"."""
        found = {(entry.get("roster") or {}).get("file") for entry in self.entries.values()}
        return [{"learner": row["learner"], "file": row["file"], "status": "missing", "total": 0}
                for row in (self.roster or {}).values() if row["file"] not in found]

    def csv(self) -> str:
        columns = self.columns()
        buffer = io.StringIO()
        writer = csv.writer(buffer, delimiter=self.sep, lineterminator="\r\n")
        header = [*COLUMNS[:7], *(f"{exercise} (/{top})" if top else exercise for exercise, top in columns), *COLUMNS[7:]]
        writer.writerow(header)
        rows = [self.entries[key] for key in sorted(self.entries)] + self.missing()
        for entry in rows:
            reason = entry.get("reason") or {}
            scored = entry.get("exercises", {})
            points = [number(scored.get(exercise, {}).get("points", ""), self.sep) for exercise, _ in columns]
            writer.writerow([entry.get("learner", entry.get("key")), entry.get("file", ""), entry.get("lesson", ""),
                             entry.get("lang", ""), entry.get("status", ""), entry.get("submitted") or "",
                             (entry.get("late") or {}).get("days", ""), *points,
                             number(entry.get("total", 0), self.sep), number(entry.get("max", ""), self.sep),
                             t(reason["key"], **reason.get("values", {})) if reason.get("key") else ""])
        return buffer.getvalue()
