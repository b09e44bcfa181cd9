"""The self-check's mode of run_check: a check stops at its first failed criterion, whatever the check catches."""
from __future__ import annotations

import pytest
from grading_files import FIXTURE_COURSE

from celerylab.checks.check_run import CheckRun, Decided, run_check


def test_stop_at_first_failure_ends_the_check_at_its_first_failed_criterion(tmp_path):
    """The self-check's mode: the criteria after the first failure never run (here: the English greeting)."""
    (tmp_path / "ex_greet.py").write_text("def greet(name, lang):\n    return name\n")
    exercise = FIXTURE_COURSE.find_exercise("l90.greet")
    whole = run_check(exercise, tmp_path)
    stopped = run_check(exercise, tmp_path, stop_at_first_failure=True)
    assert [c.passed for c in whole.criteria] == [False, False]
    assert [c.passed for c in stopped.criteria] == [False]
    assert stopped.passed is False and stopped.error is None and stopped.grader_error is None


def test_a_checks_own_except_exception_cannot_swallow_the_stop(tmp_path):
    run = CheckRun(FIXTURE_COURSE.find_exercise("l90.greet"), tmp_path, stop_at_first_failure=True)
    assert run.expect("k", 1, 1) is True
    with pytest.raises(Decided):
        try:
            run.expect("k", 1, 2)
        except Exception:  # noqa: BLE001  (what a check might write around its scenario)
            raise AssertionError("the stop must pass through a check's except Exception") from None
