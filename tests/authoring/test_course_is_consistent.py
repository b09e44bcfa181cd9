"""The real course passes `celerylab dev check` (staleness of generated files aside: tests/compiler covers it)."""
from __future__ import annotations

from celerylab.authoring.course_check import check_course


def test_the_course_is_consistent():
    report = check_course()
    assert [problem.render() for problem in report.problems] == []
    assert report.lessons >= 1 and report.exercises >= 1
