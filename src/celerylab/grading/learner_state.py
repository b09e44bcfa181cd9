"""The learner's progress across sessions: one small JSON file, written atomically."""
from __future__ import annotations

import os
import time
from pathlib import Path

from celerylab.grading.atomic import read_json, write_json

HOME_ENV = "CELERYLAB_HOME"
PASSED, FAILING, NOT_STARTED = "passed", "failing", "not-started"


def home() -> Path:
    """$CELERYLAB_HOME, else ~/.celerylab."""
    return Path(os.environ.get(HOME_ENV) or Path.home() / ".celerylab")


class LearnerState:
    """Status, attempts and hints revealed per exercise; every change is saved at once."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path else home() / "progress.json"
        data = read_json(self.path, {})
        self.exercises: dict[str, dict] = data.get("exercises", {}) if isinstance(data, dict) else {}

    def entry(self, exercise_id: str) -> dict:
        return self.exercises.get(exercise_id, {})

    def status(self, exercise_id: str) -> str:
        return self.entry(exercise_id).get("status", NOT_STARTED)

    def hints_shown(self, exercise_id: str) -> int:
        return int(self.entry(exercise_id).get("hints", 0))

    def passed(self, exercise_id: str) -> bool:
        """Ever passed: a later failing attempt does not take the solution away."""
        return bool(self.entry(exercise_id).get("ever_passed"))

    def record(self, exercise_id: str, passed: bool) -> None:
        entry = self.exercises.setdefault(exercise_id, {})
        entry["status"] = PASSED if passed else FAILING
        entry["attempts"] = int(entry.get("attempts", 0)) + 1
        entry["ever_passed"] = bool(entry.get("ever_passed")) or passed
        entry["updated"] = time.strftime("%Y-%m-%dT%H:%M:%S")
        self.save()

    def reveal_hint(self, exercise_id: str, available: int) -> int:
        """Reveal one more hint level (up to `available`); returns the level now shown (1-based)."""
        entry = self.exercises.setdefault(exercise_id, {})
        entry["hints"] = min(available, int(entry.get("hints", 0)) + 1)
        self.save()
        return entry["hints"]

    def save(self) -> None:
        write_json(self.path, {"version": 1, "exercises": self.exercises})
