"""The check() call learners run in a notebook cell: run the check live, print feedback in their language."""
from __future__ import annotations

from pathlib import Path

from celerylab.grading.engine import Verdict, run_check


class _Shown(Verdict):
    """A verdict whose repr is empty, so the feedback is not printed twice in a notebook."""

    def __repr__(self) -> str:
        return ""


def check(exercise_id: str, workdir: str | Path = ".") -> Verdict:
    """Check one exercise on a live stack and print what was expected and observed."""
    verdict = run_check(exercise_id, workdir)
    print(verdict.render())
    shown = _Shown(verdict.exercise_id, verdict.criteria, verdict.error)
    return shown
