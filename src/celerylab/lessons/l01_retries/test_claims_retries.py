"""Retry mechanics as the lesson measures them: backoff maths, the Tasks guide options, jitter, Retry-After."""
from __future__ import annotations

import pytest

from celerylab.lessons.l01_retries import helpers, scenarios, tasks, tasks_options as options

pytestmark = pytest.mark.live


def test_backoff_waits_and_final_exception(stack, observe):
    timeline = scenarios.retry_timeline(stack, per_kind=2)
    jittered = [scenarios.waits(task["attempts"]) for task in timeline["flaky_jitter"]]
    observe(waits_no_jitter=[[round(w) for w in scenarios.waits(task["attempts"])] for task in timeline["flaky"]],
            jitter_retries=[len(waits) for waits in jittered],
            jitter_within_cap=all(0 <= w <= cap + 0.9 for waits in jittered for w, cap in zip(waits, [1, 2, 4])),
            outcomes=sorted({f"{task['state']} {task['error']}" for tasks in timeline.values() for task in tasks}))
    for task in timeline["flaky"]:
        assert [round(w) for w in scenarios.waits(task["attempts"])] == [1, 2, 4]
    for task in timeline["flaky_jitter"]:
        waits = scenarios.waits(task["attempts"])
        assert len(waits) == 3 and all(0 <= w <= cap + 0.9 for w, cap in zip(waits, [1, 2, 4]))
    outcomes = {(task["state"], task["error"]) for tasks in timeline.values() for task in tasks}
    assert outcomes == {("FAILURE", "ProviderUnavailable")}


def test_backoff_maths(observe):
    from celery.utils.time import get_exponential_backoff_interval as backoff

    def wait(factor, n):
        return backoff(factor=factor, retries=n, maximum=600, full_jitter=False)

    observe(retry_reaching_cap=1 + min(n for n in range(30) if wait(1, n) == 600),
            first_waits=[wait(1, n) for n in range(3)], first_five_total=sum(wait(1, n) for n in range(5)),
            default_retry_delay=tasks.app.Task.default_retry_delay, max_retries=tasks.app.Task.max_retries)
    assert 1 + min(n for n in range(30) if wait(1, n) == 600) == 11
    assert [wait(1, n) for n in range(3)] == [1, 2, 4] and sum(wait(1, n) for n in range(5)) == 31
    assert tasks.app.Task.default_retry_delay == 180 and tasks.app.Task.max_retries == 3


def test_the_tasks_guide_options(stack, observe):
    mark = stack.workers[0].log_offset()
    nothing_set = options.no_delay_set.delay()
    line = stack.workers[0].wait_for_log(r"no_delay_set\[.*Retry in (\d+)s", timeout=10, since=mark)
    observe(no_delay_set_logged_wait=int(line.group(1)))
    assert line.group(1) == "180"
    nothing_set.revoke()
    sent = {"fixed": options.fixed_delay.delay(), "kwargs": options.kwargs_and_backoff.delay(),
            "fraction": options.fractional_backoff.delay(), "forever": options.never_gives_up.delay(5),
            "permanent": options.skip_permanent.delay(True), "transient": options.skip_permanent.delay(False)}
    got = {name: scenarios.outcome(stack, result) for name, result in sent.items()}
    close = lambda waits, wanted: len(waits) == len(wanted) and all(abs(a - b) <= 0.4 for a, b in zip(waits, wanted))
    observe(**{f"{name}_runs": row["runs"] for name, row in got.items()},
            **{f"{name}_waits": [round(w) for w in got[name]["waits"]] for name in ("fixed", "kwargs", "fraction")},
            forever_state=got["forever"]["state"], permanent_error=got["permanent"]["error"],
            transient_error=got["transient"]["error"])
    assert got["fixed"]["runs"] == 3 and close(got["fixed"]["waits"], [1, 1])
    assert got["kwargs"]["runs"] == 3 and close(got["kwargs"]["waits"], [1, 2])
    assert got["fraction"]["runs"] == 2 and close(got["fraction"]["waits"], [2])
    assert (got["forever"]["runs"], got["forever"]["state"]) == (6, "SUCCESS")
    assert (got["permanent"]["runs"], got["permanent"]["error"]) == (1, "Permanent")
    assert (got["transient"]["runs"], got["transient"]["error"]) == (4, "ConnectionError")


def test_except_max_retries_around_retry_with_exc_never_runs(stack, observe):
    with_exc, without = options.notes_manual_retry.delay(), options.retry_without_exc.delay()
    ran = lambda r: helpers.count(stack, "SELECT COUNT(*) FROM notes_log WHERE task_id = ?", (r.id,))
    first, second = scenarios.outcome(stack, with_exc), scenarios.outcome(stack, without)
    observe(with_exc_runs=first["runs"], with_exc_error=first["error"], with_exc_except_ran=ran(with_exc),
            without_exc_runs=second["runs"], without_exc_error=second["error"], without_exc_except_ran=ran(without))
    assert (first["runs"], first["error"], ran(with_exc)) == (3, "ConnectionError", 0)
    assert (second["runs"], second["error"], ran(without)) == (3, "MaxRetriesExceededError", 1)


def test_wide_autoretry_wastes_attempts_narrow_fails_at_once(stack, observe):
    wide = scenarios.wasted_retries(stack, "l01.welcome_any_error")
    narrow = scenarios.wasted_retries(stack, "l01.welcome_narrow")
    observe(wide_requests=wide["requests"], wide_error=wide["error"],
            narrow_requests=narrow["requests"], narrow_error=narrow["error"])
    assert (wide["requests"], wide["error"]) == (3, "InvalidAddress")
    assert (narrow["requests"], narrow["error"]) == (1, "InvalidAddress")


def test_manual_retry_honours_retry_after(stack, observe):
    outcome = scenarios.retry_after(stack, times=1, seconds=2)
    observe(statuses=outcome["statuses"], state=outcome["state"],
            waited_retry_after=len(outcome["gaps"]) == 1 and 1.8 <= outcome["gaps"][0] <= 3.5)
    assert outcome["statuses"] == [429, 200]
    assert outcome["state"] == "SUCCESS"
    assert 1.8 <= outcome["gaps"][0] <= 3.5


def test_a_backoff_retry_leaves_retry_kwargs_shared_by_other_tasks_alone(observe):
    """Two tasks whose base class holds `retry_kwargs`: a backoff retry of one must not change the other's wait."""
    from celery import Celery, signals

    app = Celery("l01-shared-retry-kwargs", set_as_current=False)

    class Shared(app.Task):
        retry_kwargs = {}

    @app.task(name="l01.shared.backs_off", base=Shared, bind=True, autoretry_for=(ConnectionError,),
              retry_backoff=True, retry_jitter=False, max_retries=1, shared=False)
    def backs_off(self):
        raise ConnectionError("down")

    @app.task(name="l01.shared.plain", base=Shared, bind=True, autoretry_for=(ConnectionError,), max_retries=1,
              shared=False)
    def plain(self):
        raise ConnectionError("down")

    waits = {}

    def retried(sender=None, reason=None, **_):
        if sender is not None and sender.name.startswith("l01.shared."):
            waits.setdefault(sender.name.removeprefix("l01.shared."), []).append(reason.when)

    signals.task_retry.connect(retried, weak=False)
    try:
        states = [backs_off.apply().state, plain.apply().state]
    finally:
        signals.task_retry.disconnect(retried)
    observe(states=states, shared_retry_kwargs_after=dict(Shared.retry_kwargs),
            backs_off_waits=waits.get("backs_off", []), plain_waits=waits.get("plain", []))
    assert states == ["FAILURE", "FAILURE"]
    assert Shared.retry_kwargs == {}
    assert waits == {"backs_off": [1], "plain": [180]}
