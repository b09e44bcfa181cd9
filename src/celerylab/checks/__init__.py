"""Exercises: the checks learners run from notebooks and the terminal (`@exercise`, `check()`, `hint()`)."""
from __future__ import annotations

__all__ = ["check", "hint", "exercise", "CheckRun"]


def __getattr__(name: str):
    if name in ("check", "hint"):
        from celerylab.checks import notebook
        return getattr(notebook, name)
    if name == "exercise":
        from celerylab.checks.registry import exercise
        return exercise
    if name == "CheckRun":
        from celerylab.checks.check_run import CheckRun
        return CheckRun
    raise AttributeError(name)
