"""Exercises: the check engine learners call from notebooks and the terminal, and instructor grading."""
from __future__ import annotations

__all__ = ["check", "exercise"]


def __getattr__(name: str):
    if name == "check":
        from celerylab.grading.notebook import check
        return check
    if name == "exercise":
        from celerylab.grading.engine import exercise
        return exercise
    raise AttributeError(name)
