"""Exercises: the check engine learners call from notebooks and the terminal, and instructor grading."""
from __future__ import annotations

__all__ = ["check", "hint", "exercise"]


def __getattr__(name: str):
    if name in ("check", "hint"):
        from celerylab.grading import notebook
        return getattr(notebook, name)
    if name == "exercise":
        from celerylab.grading.engine import exercise
        return exercise
    raise AttributeError(name)
