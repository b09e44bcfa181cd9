"""The gradebook: one entry per submission, saved atomically as JSON, a spreadsheet CSV and per-criterion statistics."""
from __future__ import annotations

from pathlib import Path

from celerylab.atomic import read_json, write_json, write_text
from celerylab.grader.csv_cells import csv_text
from celerylab.grader.entry import Entry
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
        found = data.get("submissions", {}) if isinstance(data, dict) else {}
        self.entries: dict[str, Entry] = {key: Entry.from_record(record, key)
                                          for key, record in (found if isinstance(found, dict) else {}).items()}

    def unchanged(self, key: str, digest: str) -> bool:
        entry = self.entries.get(key)
        return entry is not None and entry.digest == digest

    def put(self, key: str, entry: Entry, save: bool = True) -> None:
        self.entries[key] = entry
        if save:
            self.save()

    def save(self) -> None:
        write_json(self.json_path, {"version": 1, "submissions": {key: entry.to_record()
                                                                   for key, entry in self.entries.items()}})
        write_text(self.csv_path, BOM + self.csv())
        from celerylab.grader.criterion_stats import criteria_csv

        write_text(self.stats_path, BOM + criteria_csv(self.entries, self.order, self.sep))

    def columns(self) -> list[tuple[str, int | None]]:
        """(exercise id, maximum) in course order; exercises the course no longer has come last."""
        known = [(info.id, info.points) for info in self.order]
        seen = {exercise for exercise, _ in known}
        extra = sorted({e for entry in self.entries.values() for e in entry.exercises} - seen)
        maxima = {e: s.max for entry in self.entries.values() for e, s in entry.exercises.items()}
        return known + [(exercise, maxima.get(exercise)) for exercise in extra]

    def missing(self) -> list[dict]:
        """Roster learners with no submission: rows of their own, status "missing"."""
        found = {(entry.roster or {}).get("file") for entry in self.entries.values()}
        return [{"learner": row["learner"], "file": row["file"], "status": "missing", "total": 0}
                for row in (self.roster or {}).values() if row["file"] not in found]

    def csv(self) -> str:
        columns = self.columns()
        header = [*COLUMNS[:7], *(f"{exercise} (/{top})" if top else exercise for exercise, top in columns), *COLUMNS[7:]]
        rows = [header]
        for entry in [self.entries[key] for key in sorted(self.entries)]:
            reason = entry.reason or {}
            points = [number(entry.exercises[exercise].points if exercise in entry.exercises else "", self.sep)
                      for exercise, _ in columns]
            rows.append([entry.learner or "", entry.file, entry.lesson or "", entry.lang or "", entry.status,
                         entry.submitted or "", (entry.late or {}).get("days", ""), *points,
                         number(entry.total, self.sep), number(entry.max, self.sep),
                         t(reason["key"], **reason.get("values", {})) if reason.get("key") else ""])
        for row in self.missing():
            rows.append([row["learner"], row["file"], "", "", row["status"], "", "", *([""] * len(columns)),
                         number(row["total"], self.sep), "", ""])
        return csv_text(rows, self.sep)
