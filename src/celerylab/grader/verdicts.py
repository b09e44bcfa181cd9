"""Typed verdicts of the grading pipeline: what a job reports per exercise, and the points it scores."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class JobVerdict:
    """One exercise as a grading job reported it: the recorded criteria, or why there are none."""

    exercise: str
    criteria: list[dict] = field(default_factory=list)
    error: str | None = None
    crashed: bool = False
    tampered: bool = False
    grader_error: str | None = None  # the grader's own fault: this exercise is not graded, not failed

    @classmethod
    def lost(cls, exercise: str) -> "JobVerdict":
        """The job died (or ran out of time) while this exercise's check ran."""
        return cls(exercise, crashed=True)

    @classmethod
    def grader_failure(cls, exercise: str, why: str) -> "JobVerdict":
        """The check could not run because of the grader (the job died before it, or grader code crashed)."""
        return cls(exercise, grader_error=why)

    @classmethod
    def from_record(cls, record: Any, exercise: str) -> "JobVerdict":
        """Read back from the job's JSON line; anything malformed counts as a crash, never as a pass."""
        if not isinstance(record, dict):
            return cls.lost(exercise)
        criteria = record.get("criteria")
        criteria = [c for c in criteria if isinstance(c, dict)] if isinstance(criteria, list) else []
        error = record.get("error")
        grader_error = record.get("grader_error")
        return cls(exercise, criteria, str(error) if error else None,
                   bool(record.get("crashed")), bool(record.get("tampered")),
                   str(grader_error) if grader_error else None)

    @property
    def passed(self) -> bool:
        """Decided here, from the criteria the check recorded, not from any flag the job reported."""
        return (not self.error and not self.crashed and not self.tampered and not self.grader_error
                and bool(self.criteria)
                and all(criterion.get("passed") is True for criterion in self.criteria))

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class ScoredExercise:
    """An exercise in a gradebook entry: points out of its maximum, and the evidence behind them."""

    points: int | float
    max: int
    passed: bool
    error: str | None = None
    crashed: bool = False
    tampered: bool = False
    criteria: list[dict] = field(default_factory=list)

    @classmethod
    def from_verdict(cls, verdict: JobVerdict, points: int, partial: bool = False) -> "ScoredExercise":
        """All points when every criterion passed; with `partial`, the share of criteria passed (hidden
        ones included); nothing when the check could not decide (error, crash, tampering, no criteria)."""
        passed = verdict.passed
        earned = points if passed else 0
        decided = not (verdict.error or verdict.crashed or verdict.tampered) and verdict.criteria
        if partial and decided and not passed:
            share = sum(c.get("passed") is True for c in verdict.criteria) / len(verdict.criteria)
            earned = round(points * share, 2)
            earned = int(earned) if float(earned).is_integer() else earned
        return cls(earned, points, passed, verdict.error, verdict.crashed, verdict.tampered, verdict.criteria)

    @classmethod
    def zero(cls, points: int) -> "ScoredExercise":
        return cls(0, points, False)

    def to_dict(self) -> dict:
        return asdict(self)
