"""The learner's progress across sessions: one small JSON file per course and language, changed under a lock."""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from celerylab.atomic import write_json
from celerylab.i18n import t

if TYPE_CHECKING:
    from celerylab.course import Course

HOME_ENV = "CELERYLAB_HOME"
PASSED, FAILING, NOT_STARTED = "passed", "failing", "not-started"
FIELDS = {"status": str, "attempts": int, "hints": int, "ever_passed": bool, "updated": str}


def home() -> Path:
    """$CELERYLAB_HOME, else ~/.celerylab."""
    return Path(os.environ.get(HOME_ENV) or Path.home() / ".celerylab")


def scope_dir(lang: str | None = None, *, course: Course) -> Path:
    """This course's folder for `lang` under home(): ``courses/<checkout>-<hash>/<lang>``.

    Two clones, two courses or two languages never share progress or a JupyterLab workspace.
    """
    from celerylab.i18n import get_lang

    where = f"{course.lessons_dir.resolve()}|{course.output_root.resolve()}"
    name = course.output_root.resolve().name or "course"
    return home() / "courses" / f"{name}-{hashlib.sha256(where.encode()).hexdigest()[:10]}" / (lang or get_lang())


def well_formed(data) -> bool:
    """The shape save() writes: {"exercises": {id: {field: value of its type}}}."""
    exercises = data.get("exercises") if isinstance(data, dict) else None
    return isinstance(exercises, dict) and all(
        isinstance(entry, dict) and all(type(entry[name]) is kind for name, kind in FIELDS.items() if name in entry)
        for entry in exercises.values())


class LearnerState:
    """Status, attempts and hints revealed per exercise; every change is a locked read-modify-write."""

    def __init__(self, path: str | Path | None = None, lang: str | None = None, *, course: Course | None = None):
        """The progress at `path`, else the one of `course` in `lang` (one of the two is needed)."""
        if not path and course is None:
            raise TypeError("LearnerState needs a path or a course")
        self.path = Path(path) if path else scope_dir(lang, course=course) / "progress.json"
        with self._locked():
            self.exercises: dict[str, dict] = self._read()

    @contextmanager
    def _locked(self):
        """An exclusive lock on progress.json.lock, held while the file is read and replaced."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle = os.open(self.path.with_name(self.path.name + ".lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError:  # a read-only home: reading still works, writing will say why
            yield
            return
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
            yield
        finally:
            os.close(handle)

    def _read(self) -> dict:
        """The stored exercises; a damaged file is renamed progress.json.damaged-TIME and reported once."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if well_formed(data):
            return data["exercises"]
        aside = self.path.with_name(f"{self.path.name}.damaged-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}")
        os.replace(self.path, aside)
        print(t("progress.damaged", path=self.path, aside=aside), file=sys.stderr)
        return {}

    def _change(self, exercise_id: str, change) -> dict:
        with self._locked():
            self.exercises = self._read()
            entry = self.exercises.setdefault(exercise_id, {})
            change(entry)
            write_json(self.path, {"version": 1, "exercises": self.exercises})
        return entry

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
        def change(entry: dict) -> None:
            entry["status"] = PASSED if passed else FAILING
            entry["attempts"] = int(entry.get("attempts", 0)) + 1
            entry["ever_passed"] = bool(entry.get("ever_passed")) or passed
            entry["updated"] = time.strftime("%Y-%m-%dT%H:%M:%S")
        self._change(exercise_id, change)

    def reveal_hint(self, exercise_id: str, available: int) -> int:
        """Reveal one more hint level (up to `available`); returns the level now shown (1-based)."""
        entry = self._change(exercise_id, lambda entry: entry.update(hints=min(available, int(entry.get("hints", 0)) + 1)))
        return entry["hints"]

    def reset(self, exercise_id: str) -> bool:
        """Forget one exercise (status, attempts, hints); True when there was something to forget."""
        with self._locked():
            self.exercises = self._read()
            known = self.exercises.pop(exercise_id, None) is not None
            write_json(self.path, {"version": 1, "exercises": self.exercises})
        return known

    def save(self) -> None:
        with self._locked():
            write_json(self.path, {"version": 1, "exercises": self.exercises})
