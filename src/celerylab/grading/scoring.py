"""Turning a job's observations into a gradebook entry: points per exercise from the course metadata."""
from __future__ import annotations

from celerylab.course import Exercise


def verdict_passed(verdict: dict) -> bool:
    """Decided here, from the criteria the check recorded, not from any flag the job reported."""
    criteria = verdict.get("criteria") or []
    return (not verdict.get("error") and not verdict.get("crashed") and not verdict.get("tampered") and bool(criteria)
            and all(criterion.get("passed") is True for criterion in criteria))


def entry(base: dict, result: dict, exercises: list[Exercise]) -> dict:
    """A graded entry: every exercise of the lesson, its points, its criteria and the execution notes."""
    scored = {}
    for info in exercises:
        verdict = result.get("verdicts", {}).get(info.id, {"criteria": [], "crashed": True})
        passed = verdict_passed(verdict)
        scored[info.id] = {"points": info.points if passed else 0, "max": info.points, "passed": passed,
                           "error": verdict.get("error"), "crashed": bool(verdict.get("crashed")),
                           "tampered": bool(verdict.get("tampered")),
                           "criteria": verdict.get("criteria") or []}
    return {**base, "status": "graded", "reason": None, "notes": result.get("execution", []),
            "exercises": scored, "total": sum(e["points"] for e in scored.values()),
            "max": sum(e["max"] for e in scored.values())}


def rejected(base: dict, key: str, values: dict, exercises: list[Exercise], status: str = "rejected") -> dict:
    """An entry for a submission that could not be graded: zero points, and the reason."""
    scored = {info.id: {"points": 0, "max": info.points, "passed": False, "error": None, "crashed": False,
                        "criteria": []} for info in exercises}
    return {**base, "status": status, "reason": {"key": key, "values": values}, "notes": [],
            "exercises": scored, "total": 0, "max": sum(info.points for info in exercises)}
