"""Retry mechanics as the lesson measures them: backoff maths, the Tasks guide options, jitter, Retry-After."""
from __future__ import annotations

import pytest

from celerylab.lessons.l01_retries import helpers, scenarios, tasks, tasks_options as options

pytestmark = pytest.mark.live


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
        assert len(waits) == 3 and all(0 <= w <= cap + 0.9 for w, cap in zip(waits, [1, 2, 4]))
    outcomes = {(task["state"], task["error"]) for tasks in timeline.values() for task in tasks}
    assert outcomes == {("FAILURE", "ProviderUnavailable")}


def test_backoff_maths():
    from celery.utils.time import get_exponential_backoff_interval as backoff

    def wait(factor, n):
        return backoff(factor=factor, retries=n, maximum=600, full_jitter=False)

    assert 1 + min(n for n in range(30) if wait(1, n) == 600) == 11
    assert [wait(1, n) for n in range(3)] == [1, 2, 4] and sum(wait(1, n) for n in range(5)) == 31
    assert tasks.app.Task.default_retry_delay == 180 and tasks.app.Task.max_retries == 3


def test_the_tasks_guide_options(stack):
    mark = stack.workers[0].log_offset()
    nothing_set = options.no_delay_set.delay()
    line = stack.workers[0].wait_for_log(r"no_delay_set\[.*Retry in (\d+)s", timeout=10, since=mark)
    assert line.group(1) == "180"
    nothing_set.revoke()
    sent = {"fixed": options.fixed_delay.delay(), "kwargs": options.kwargs_and_backoff.delay(),
            "fraction": options.fractional_backoff.delay(), "forever": options.never_gives_up.delay(5),
            "permanent": options.skip_permanent.delay(True), "transient": options.skip_permanent.delay(False)}
    got = {name: scenarios.outcome(stack, result) for name, result in sent.items()}
    close = lambda waits, wanted: len(waits) == len(wanted) and all(abs(a - b) <= 0.4 for a, b in zip(waits, wanted))
    assert got["fixed"]["runs"] == 3 and close(got["fixed"]["waits"], [1, 1])
    assert got["kwargs"]["runs"] == 3 and close(got["kwargs"]["waits"], [1, 2])
    assert got["fraction"]["runs"] == 2 and close(got["fraction"]["waits"], [2])
    assert (got["forever"]["runs"], got["forever"]["state"]) == (6, "SUCCESS")
    assert (got["permanent"]["runs"], got["permanent"]["error"]) == (1, "Permanent")
    assert (got["transient"]["runs"], got["transient"]["error"]) == (4, "ConnectionError")


def test_except_max_retries_around_retry_with_exc_never_runs(stack):
    with_exc, without = options.notes_manual_retry.delay(), options.retry_without_exc.delay()
    ran = lambda r: helpers.count(stack, "SELECT COUNT(*) FROM notes_log WHERE task_id = ?", (r.id,))
    first, second = scenarios.outcome(stack, with_exc), scenarios.outcome(stack, without)
    assert (first["runs"], first["error"], ran(with_exc)) == (3, "ConnectionError", 0)
    assert (second["runs"], second["error"], ran(without)) == (3, "MaxRetriesExceededError", 1)


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
