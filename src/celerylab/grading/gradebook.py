"""The gradebook: one entry per submission, saved atomically as JSON and CSV after every grade."""
from __future__ import annotations

import csv
import io
from pathlib import Path

from celerylab.grading.atomic import read_json, write_json, write_text
from celerylab.i18n import t

COLUMNS = ["learner", "file", "lesson", "lang", "status", "total", "max", "reason"]


class Gradebook:
    """Entries by submission key; `unchanged()` lets a re-run skip what it already graded."""

    def __init__(self, out: str | Path):
        self.out = Path(out)
        self.json_path, self.csv_path = self.out / "gradebook.json", self.out / "gradebook.csv"
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
        write_text(self.csv_path, self.csv())

    def csv(self) -> str:
        exercise_ids = sorted({exercise for entry in self.entries.values() for exercise in entry.get("exercises", {})})
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(COLUMNS[:5] + exercise_ids + COLUMNS[5:])
        for key in sorted(self.entries):
            entry = self.entries[key]
            reason = entry.get("reason") or {}
            points = [entry.get("exercises", {}).get(exercise, {}).get("points", "") for exercise in exercise_ids]
            writer.writerow([entry.get("learner", key), entry.get("file", ""), entry.get("lesson", ""),
                             entry.get("lang", ""), entry.get("status", ""), *points, entry.get("total", 0),
                             entry.get("max", 0),
                             t(reason["key"], **reason.get("values", {})) if reason.get("key") else ""])
        return buffer.getvalue()
