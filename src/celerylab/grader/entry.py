"""A gradebook entry, typed: one submission's status, points per exercise (each with its verdict), and the bookkeeping.

Written to gradebook.json once, at the gradebook's save (`to_record`), and read back once, when a later run
opens it (`from_record`); the fields and their JSON are those of earlier gradebooks.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from celerylab.checks.verdict import Verdict

OPTIONAL = ("isolation", "late", "raw_total", "feedback_error", "log")  # written only when set


@dataclass
class ScoredExercise:
    """An exercise in a gradebook entry: points out of its maximum, and the verdict behind them."""

    points: int | float
    max: int
    verdict: Verdict

    @property
    def passed(self) -> bool:
        return self.verdict.passed

    @classmethod
    def from_record(cls, record: Any, exercise: str) -> "ScoredExercise":
        """Read back from the gradebook; its verdict as the job's record would be read (malformed: a crash)."""
        record = record if isinstance(record, dict) else {}
        return cls(record.get("points", 0), record.get("max", 0), Verdict.from_record(record, exercise))

    @classmethod
    def zero(cls, exercise: str, points: int) -> "ScoredExercise":
        return cls(0, points, Verdict(exercise))

    def to_record(self) -> dict:
        """The gradebook's form: points, maximum, and the verdict's evidence (hidden criteria included)."""
        verdict = self.verdict
        return {"points": self.points, "max": self.max, "passed": verdict.passed, "error": verdict.error,
                "crashed": verdict.crashed, "tampered": verdict.tampered,
                "criteria": [criterion.to_record() for criterion in verdict.criteria]}


@dataclass
class Entry:
    """One submission in the gradebook: graded, rejected (with its reason) or a grader failure."""

    key: str
    file: str = ""
    learner: str | None = None  # the roster's name, else the key
    lesson: str | None = None
    lang: str = "pt"
    digest: str | None = None  # what grading depended on: an unchanged digest is skipped on a re-run
    submitted: str | None = None
    status: str = "graded"
    reason: dict | None = None  # {"key": catalog key, "values": {...}} when not graded
    notes: list = field(default_factory=list)  # the execution notes (cell errors, timeouts, strays)
    exercises: dict[str, ScoredExercise] = field(default_factory=dict)
    total: int | float = 0
    max: int | None = 0  # None: a rejected file of no known lesson has no maximum
    isolation: dict | None = None  # {"given": [...], "missing": [...]} of a graded job's sandbox
    roster: dict | None = None
    late: dict | None = None
    raw_total: int | float | None = None  # the total before the late penalty
    feedback_error: str | None = None
    log: str | None = None  # the job's log beside the gradebook (logs/KEY.log) when an attempt died during a check
    extra: dict = field(default_factory=dict)  # fields this version does not know, kept as they were

    def __post_init__(self) -> None:
        self.learner = self.learner or self.key

    def to_record(self) -> dict:
        record = {}
        for name in (f.name for f in fields(self)):
            value = getattr(self, name)
            if name == "extra" or (name in OPTIONAL and value is None):
                continue
            record[name] = {exercise: scored.to_record() for exercise, scored in value.items()} \
                if name == "exercises" else value
        return {**record, **self.extra}

    @classmethod
    def from_record(cls, record: Any, key: str) -> "Entry":
        """Read back from gradebook.json (a malformed exercise counts as crashed, never as passed)."""
        record = dict(record) if isinstance(record, dict) else {}
        names = {f.name for f in fields(cls)} - {"extra", "exercises"}
        known = {name: record.pop(name) for name in list(record) if name in names}
        exercises = record.pop("exercises", None)
        exercises = {exercise: ScoredExercise.from_record(scored, exercise)
                     for exercise, scored in exercises.items()} if isinstance(exercises, dict) else {}
        return cls(**{"key": key, **known}, exercises=exercises, extra=record)
