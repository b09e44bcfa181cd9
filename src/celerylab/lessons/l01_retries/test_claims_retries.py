"""Retry mechanics as the lesson measures them: backoff maths, the Tasks guide options, jitter, Retry-After."""
from __future__ import annotations

import pytest

from celerylab.lessons.l01_retries import helpers, scenarios, tasks
from celerylab.lessons.l01_retries import tasks_options as options

pytestmark = pytest.mark.live


def test_backoff_waits_and_final_exception(stack, observe):
    """The waits are the countdowns Celery chose (the worker's `Retry in 2s`): an attempt starts at its
    countdown or later (on a loaded machine, later), so the gaps between starts are at least these."""
    timeline = scenarios.retry_timeline(stack, per_kind=2)
    jittered = [task["countdowns"] for task in timeline["flaky_jitter"]]
    no_jitter = [task["countdowns"] for task in timeline["flaky"]]
    observe.equal(waits_no_jitter=(no_jitter, [[1, 2, 4]] * len(no_jitter)),
                  jitter_retries=([len(countdowns) for countdowns in jittered], [3] * len(jittered)),
                  jitter_within_cap=(all(0 <= c <= cap for countdowns in jittered
                                         for c, cap in zip(countdowns, [1, 2, 4])), True),
                  outcomes=(sorted({f"{task['state']} {task['error']}" for tasks in timeline.values()
                                    for task in tasks}), ["FAILURE ProviderUnavailable"]),
                  why=f"jittered countdowns {jittered}")


def test_backoff_maths(observe):
    from celery.utils.time import get_exponential_backoff_interval as backoff

    def wait(factor, n):
        return backoff(factor=factor, retries=n, maximum=600, full_jitter=False)

    observe.equal(retry_reaching_cap=(1 + min(n for n in range(30) if wait(1, n) == 600), 11),
                  first_waits=([wait(1, n) for n in range(3)], [1, 2, 4]),
                  first_five_total=(sum(wait(1, n) for n in range(5)), 31),
                  default_retry_delay=(tasks.app.Task.default_retry_delay, 180),
                  max_retries=(tasks.app.Task.max_retries, 3))


def test_the_tasks_guide_options(stack, observe):
    mark = stack.workers[0].log_offset()
    nothing_set = options.no_delay_set.delay()
    line = stack.workers[0].wait_for_log(r"no_delay_set\[.*Retry in (\d+)s", timeout=10, since=mark)
    observe.equal(no_delay_set_logged_wait=(int(line.group(1)), 180))
    nothing_set.revoke()
    sent = {"fixed": options.fixed_delay.delay(), "kwargs": options.kwargs_and_backoff.delay(),
            "fraction": options.fractional_backoff.delay(), "forever": options.never_gives_up.delay(5),
            "permanent": options.skip_permanent.delay(True), "transient": options.skip_permanent.delay(False)}
    got = {name: scenarios.outcome(stack, result) for name, result in sent.items()}
    runs = {"fixed": 3, "kwargs": 3, "fraction": 2, "forever": 6, "permanent": 1, "transient": 4}
    observe(**{f"{name}_waits": got[name]["countdowns"] for name in ("fixed", "kwargs", "fraction")})
    observe.equal(**{f"{name}_runs": (row["runs"], runs[name]) for name, row in got.items()},
                  forever_state=(got["forever"]["state"], "SUCCESS"), permanent_error=(got["permanent"]["error"],
                                                                                       "Permanent"),
                  transient_error=(got["transient"]["error"], "ConnectionError"))
    assert [got[name]["countdowns"] for name in ("fixed", "kwargs", "fraction")] == [[1, 1], [1, 2], [2]]
    assert all(wait >= countdown for row in got.values() for wait, countdown in zip(row["waits"], row["countdowns"]))


def test_except_max_retries_around_retry_with_exc_never_runs(stack, observe):
    with_exc, without = options.notes_manual_retry.delay(), options.retry_without_exc.delay()

    def ran(r):
        return helpers.count(stack, "SELECT COUNT(*) FROM notes_log WHERE task_id = ?", (r.id,))

    first, second = scenarios.outcome(stack, with_exc), scenarios.outcome(stack, without)
    observe.equal(with_exc_runs=(first["runs"], 3), with_exc_error=(first["error"], "ConnectionError"),
                  with_exc_except_ran=(ran(with_exc), 0), without_exc_runs=(second["runs"], 3),
                  without_exc_error=(second["error"], "MaxRetriesExceededError"),
                  without_exc_except_ran=(ran(without), 1))


def test_wide_autoretry_wastes_attempts_narrow_fails_at_once(stack, observe):
    wide = scenarios.wasted_retries(stack, "l01.welcome_any_error")
    narrow = scenarios.wasted_retries(stack, "l01.welcome_narrow")
    observe.equal(wide_requests=(wide["requests"], 3), wide_error=(wide["error"], "InvalidAddress"),
                  narrow_requests=(narrow["requests"], 1), narrow_error=(narrow["error"], "InvalidAddress"))


def test_manual_retry_honours_retry_after(stack, observe):
    outcome = scenarios.retry_after(stack, times=1, seconds=2)
    observe.equal(statuses=(outcome["statuses"], [429, 200]), state=(outcome["state"], "SUCCESS"),
                  waited_retry_after=(outcome["countdowns"] == [2] and len(outcome["gaps"]) == 1
                                      and outcome["gaps"][0] >= 2, True),
                  why=f"countdowns {outcome['countdowns']}, gaps {outcome['gaps']}")


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
    observe.equal(states=(states, ["FAILURE", "FAILURE"]), shared_retry_kwargs_after=(dict(Shared.retry_kwargs), {}),
                  backs_off_waits=(waits.get("backs_off", []), [1]), plain_waits=(waits.get("plain", []), [180]))
