"""A matrix cell in words, in both languages."""
from __future__ import annotations

from celerylab.matrix.report import describe_result


def test_a_cell_says_the_outcome_the_observed_values_and_why_it_failed():
    held = {"outcome": "passed", "message": "", "observed": {"runs": 1, "state": "PENDING", "keys": [1, 2]}}
    assert describe_result(held, "en") == "holds · runs=1, state=PENDING, keys=[1, 2]"
    assert describe_result(held, "pt") == "vale · runs=1, state=PENDING, keys=[1, 2]"
    failed = {"outcome": "failed", "message": "assert 2 == 1", "observed": {"runs": 2}}
    assert describe_result(failed, "en") == "does not hold · runs=2 (assert 2 == 1)"
    assert describe_result(None, "pt") == "não rodou"


def test_a_long_failure_line_is_cut():
    failed = {"outcome": "failed", "message": "x" * 400, "observed": {}}
    assert describe_result(failed, "en") == "does not hold (" + "x" * 159 + "…)"
