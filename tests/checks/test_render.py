"""A failed criterion says why when the reason is plain: a task that never finished within the check's limit."""
from __future__ import annotations

import pytest

from celerylab.checks.render import criterion_line, never_finished
from celerylab.checks.verdict import Criterion, Printed


@pytest.mark.parametrize("observed", ["PENDING", ["PENDING", "PENDING"], ("STARTED",), Printed("['PENDING', 'STARTED']")])
def test_only_unfinished_states_read_as_a_task_that_never_finished(observed):
    assert never_finished(observed)


@pytest.mark.parametrize("observed", ["SUCCESS", ["PENDING", "SUCCESS"], "pending", 3, None, [], "FAILURE"])
def test_anything_else_does_not(observed):
    assert not never_finished(observed)


def test_the_line_of_a_task_that_never_finished_says_so_in_the_learners_language():
    stuck = Criterion("x", "SUCCESS", ["PENDING", "PENDING"], False)
    assert "did not finish within the check's time limit" in criterion_line(stuck, "en")
    assert "não terminou dentro do limite de tempo" in criterion_line(stuck, "pt")
    assert "time limit" not in criterion_line(Criterion("x", "SUCCESS", "FAILURE", False), "en")
    assert "time limit" not in criterion_line(Criterion("x", "PENDING", "PENDING", True), "en")
