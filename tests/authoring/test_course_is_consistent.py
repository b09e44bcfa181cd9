"""The real course passes `celerylab dev check` (staleness of generated files aside: tests/compiler covers it)."""
from __future__ import annotations

import time

from celerylab.authoring.course_check import check_course


def test_the_course_is_consistent():
    started = time.perf_counter()
    report = check_course()
    assert [problem.render() for problem in report.problems] == []
    assert report.lessons >= 1 and report.exercises >= 1
    assert time.perf_counter() - started < 20
