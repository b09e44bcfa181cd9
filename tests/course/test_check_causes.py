"""Lesson 02's export check: a failed export names the learner's exception with its message, not its type alone."""
from __future__ import annotations

import pytest

from celerylab.checks.check_run import run_check
from celerylab.checks.render import verdict_text
from celerylab.course import Course

EXPORT_WITH_A_TYPO = '''
from celerylab.lessons.l02_workers.runs import record
from celerylab.lessons.l02_workers.tasks import app


@app.task(name="ex.export", soft_time_limit=1, time_limit=2)
def export(path: str, rows: int = 100) -> str:
    record(path, "start")
    with open(path, "w") as file:
        file.write(header)
    return path
'''


@pytest.mark.live
def test_an_export_that_raises_nameerror_shows_the_message(tmp_path):
    (tmp_path / "ex_export.py").write_text(EXPORT_WITH_A_TYPO, encoding="utf-8")
    verdict = run_check(Course.at().find_exercise("l02.export_cleanup"), tmp_path)
    outcome = next((c for c in verdict.criteria if c.key == "l02.check.export_outcome"), None)
    assert outcome is not None, verdict_text(verdict, "en")
    assert not outcome.passed and outcome.observed == "FAILURE NameError"
    assert outcome.cause == "NameError: name 'header' is not defined"
    assert "name 'header' is not defined" in verdict_text(verdict, "pt")
