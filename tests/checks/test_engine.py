"""The verdict's title: ❌, or ✅ with the criteria passed here and those still checked at grading."""
from __future__ import annotations

from pathlib import Path

import pytest

from celerylab.checks.check_run import CheckRun
from celerylab.checks.render import verdict_text
from celerylab.checks.verdict import Criterion, Verdict
from celerylab.course import Exercise


def passed(count: int, deferred: int) -> Verdict:
    return Verdict("l90.greet", [Criterion("k", 1, 1, True) for _ in range(count)], deferred=deferred)


@pytest.mark.parametrize("deferred,pt,en", [
    (0, "✅ l90.greet: passou nos 3 critérios.", "✅ l90.greet: passed 3 criteria."),
    (1, "✅ l90.greet: passou nos 3 critérios; mais 1 é verificado na correção.",
     "✅ l90.greet: passed 3 criteria; 1 more is checked at grading."),
    (4, "✅ l90.greet: passou nos 3 critérios; mais 4 são verificados na correção.",
     "✅ l90.greet: passed 3 criteria; 4 more are checked at grading."),
])
def test_a_pass_says_how_many_criteria_ran_and_how_many_grading_adds(deferred, pt, en):
    verdict = passed(3, deferred)
    assert verdict_text(verdict, "pt").split("\n")[0] == pt
    assert verdict_text(verdict, "en").split("\n")[0] == en


def test_hidden_criteria_run_here_count_as_the_graders_too():
    """A course build runs the hidden criteria: its ✅ reads as the learner's does."""
    criteria = [Criterion("k", 1, 1, True), Criterion("k", 2, 2, True), Criterion("k", 3, 3, True, hidden=True)]
    assert verdict_text(Verdict("l90.greet", criteria), "en").split("\n")[0] == \
        "✅ l90.greet: passed 2 criteria; 1 more is checked at grading."


def test_a_failure_says_not_yet_whatever_is_deferred():
    verdict = Verdict("l90.greet", [Criterion("k", 1, 2, False)], deferred=2)
    assert verdict_text(verdict, "en").split("\n")[0] == "❌ l90.greet: not yet."


@pytest.mark.parametrize("include_hidden,deferred", [(False, 3), (True, 0)])
def test_graded_counts_the_hidden_criteria_it_leaves_to_grading(include_hidden, deferred):
    info = Exercise("l90.greet", "l90_fixture", "greet", 1, "ex_greet")
    run = CheckRun(info, Path("."), include_hidden=include_hidden)
    assert run.graded(2) is include_hidden
    assert run.graded(1) is include_hidden
    assert run.verdict.deferred == deferred
