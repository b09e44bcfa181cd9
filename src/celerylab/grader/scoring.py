"""Turning a job's observations into a gradebook entry: points per exercise from the course metadata."""
from __future__ import annotations

from celerylab.course import Exercise
from celerylab.grader.verdicts import JobVerdict, ScoredExercise


def as_verdict(found, exercise: str) -> JobVerdict:
    """A local job's JobVerdict as is; a remote worker's (a JSON dict) read back, malformed ones as crashes."""
    return found if isinstance(found, JobVerdict) else JobVerdict.from_record(found, exercise)


def entry(base: dict, result: dict, exercises: list[Exercise]) -> dict:
    """A graded entry: every exercise of the lesson, its points, its criteria and the execution notes."""
    verdicts = result.get("verdicts", {})
    scored = {info.id: ScoredExercise.from_verdict(as_verdict(verdicts.get(info.id), info.id), info.points,
                                                   info.partial).to_dict()
              for info in exercises}
    total = round(sum(e["points"] for e in scored.values()), 2)
    return {**base, "status": "graded", "reason": None, "notes": result.get("execution", []),
            "exercises": scored, "total": int(total) if float(total).is_integer() else total,
            "max": sum(e["max"] for e in scored.values())}


def rejected(base: dict, key: str, values: dict, exercises: list[Exercise], status: str = "rejected") -> dict:
    """An entry for a submission that could not be graded: zero points out of its lesson's maximum, and the
    reason; with no known lesson, no maximum at all (None), never "0/0"."""
    scored = {info.id: ScoredExercise.zero(info.points).to_dict() for info in exercises}
    return {**base, "status": status, "reason": {"key": key, "values": values}, "notes": [],
            "exercises": scored, "total": 0, "max": sum(info.points for info in exercises) if exercises else None}
