"""Turning a job's verdicts into a gradebook entry: points per exercise from the course metadata."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from celerylab.checks.verdict import Verdict
from celerylab.course import Exercise
from celerylab.grader.entry import Entry, ScoredExercise

if TYPE_CHECKING:
    from celerylab.grader.spec import JobResult


def score(verdict: Verdict, points: int, partial: bool = False) -> ScoredExercise:
    """All points when every criterion passed; with `partial`, the share of criteria passed (hidden ones
    included); nothing when the check could not decide (error, crash, tampering, no criteria)."""
    earned = points if verdict.passed else 0
    if partial and verdict.decided and not verdict.passed:
        share = sum(c.passed is True for c in verdict.criteria) / len(verdict.criteria)
        earned = whole(round(points * share, 2))
    return ScoredExercise(earned, points, verdict)


def whole(number: float) -> int | float:
    """2.0 as 2: the gradebook prints points without a needless decimal."""
    return int(number) if float(number).is_integer() else number


def entry(base: Entry, result: JobResult, exercises: list[Exercise]) -> Entry:
    """A graded entry: every exercise of the lesson, its points, its verdict and the execution notes; an
    exercise the job reported nothing of counts as crashed."""
    scored = {info.id: score(result.verdicts.get(info.id) or Verdict.lost(info.id), info.points, info.partial)
              for info in exercises}
    total = round(sum(e.points for e in scored.values()), 2)
    return replace(base, status="graded", reason=None, notes=result.execution, exercises=scored,
                   total=whole(total), max=sum(e.max for e in scored.values()))


def rejected(base: Entry, key: str, values: dict, exercises: list[Exercise], status: str = "rejected") -> Entry:
    """An entry for a submission that could not be graded: zero points out of its lesson's maximum, and the
    reason; with no known lesson, no maximum at all (None), never "0/0"."""
    scored = {info.id: ScoredExercise.zero(info.id, info.points) for info in exercises}
    return replace(base, status=status, reason={"key": key, "values": values}, notes=[], exercises=scored,
                   total=0, max=sum(info.points for info in exercises) if exercises else None)
