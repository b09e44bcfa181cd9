"""Retry mechanics as the lesson measures them: backoff waits, jitter bounds, wasted retries, Retry-After."""
from __future__ import annotations

import pytest

from celerylab.lessons.l01_retries import helpers, scenarios

pytestmark = pytest.mark.live  # starts processes


@pytest.fixture(scope="module")
def stack():
    with helpers.start() as running:
        yield running


def test_backoff_waits_and_final_exception(stack):
    timeline = scenarios.retry_timeline(stack, per_kind=2)
    for task in timeline["flaky"]:
        assert [round(w) for w in scenarios.waits(task["attempts"])] == [1, 2, 4]
    for task in timeline["flaky_jitter"]:
        waits = scenarios.waits(task["attempts"])
        assert len(waits) == 3 and all(0 <= w <= cap + 0.5 for w, cap in zip(waits, [1, 2, 4]))
    outcomes = {(task["state"], task["error"]) for tasks in timeline.values() for task in tasks}
    assert outcomes == {("FAILURE", "ProviderUnavailable")}


def test_wide_autoretry_wastes_attempts_narrow_fails_at_once(stack):
    wide = scenarios.wasted_retries(stack, "l01.welcome_any_error")
    narrow = scenarios.wasted_retries(stack, "l01.welcome_narrow")
    assert (wide["requests"], wide["error"]) == (3, "InvalidAddress")
    assert (narrow["requests"], narrow["error"]) == (1, "InvalidAddress")


def test_manual_retry_honours_retry_after(stack):
    outcome = scenarios.retry_after(stack, times=1, seconds=2)
    assert outcome["statuses"] == [429, 200]
    assert outcome["state"] == "SUCCESS"
    assert 1.8 <= outcome["gaps"][0] <= 3.5
