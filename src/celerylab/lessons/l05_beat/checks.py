"""Lesson 05's exercise checks: each runs the learner's module on a live stack it starts."""
from __future__ import annotations

from celerylab.grading.engine import CheckRun, exercise


@exercise("l05.double")
def double(run: CheckRun) -> None:
    with run.stack(timeline=False) as stack:
        for n in (21, -4):
            result = stack.app.send_task("ex.double", (n,))
            run.expect("l05.check.double", n * 2, result.get(timeout=30), n=n)
