"""Retry mechanics as the lesson measures them: backoff maths, the Tasks guide options, jitter, Retry-After."""
from __future__ import annotations

import pytest

from celerylab.lessons.l01_retries.experiments.backoff_waits import backoff_waits
from celerylab.lessons.l01_retries.experiments.except_max import except_max
from celerylab.lessons.l01_retries.experiments.guide_options import guide_options
from celerylab.lessons.l01_retries.experiments.retry_after import retry_after
from celerylab.lessons.l01_retries.experiments.retry_timeline import retry_timeline
from celerylab.lessons.l01_retries.experiments.shared_retry_kwargs import shared_retry_kwargs
from celerylab.lessons.l01_retries.experiments.wasted_retries import wasted_retries

pytestmark = pytest.mark.live

CLIENT_TIMED_OUT = "TimeoutError"  # the e-mail client's own timeout: the provider answered too late


def test_backoff_waits_and_final_exception(stack, observe):
    """The waits are the countdowns Celery chose (the worker's `Retry in 2s`): an attempt starts at its
    countdown or later (on a loaded machine, later), so the gaps between starts are at least these.

    Which exception a task ends with is read only from tasks whose last attempt got the provider's 503: on a loaded
    machine the fake provider may answer later than the client's 0.3 s timeout, and that attempt ends in the client's
    own TimeoutError (not retried), which says nothing of the exception Celery re-raises after the last retry."""
    timeline = retry_timeline(stack, per_kind=2).tasks
    jittered = [task["countdowns"] for task in timeline["flaky_jitter"]]
    no_jitter = [task["countdowns"] for task in timeline["flaky"]]
    observe.equal(waits_no_jitter=(no_jitter, [[1, 2, 4]] * len(no_jitter)),
                  jitter_retries=([len(countdowns) for countdowns in jittered], [3] * len(jittered)),
                  jitter_within_cap=(all(0 <= c <= cap for countdowns in jittered
                                         for c, cap in zip(countdowns, [1, 2, 4])), True),
                  outcomes=(sorted({f"{task['state']} {task['error']}" for tasks in timeline.values()
                                    for task in tasks if task["error"] != CLIENT_TIMED_OUT}),
                            ["FAILURE ProviderUnavailable"]),
                  why=f"jittered countdowns {jittered}")


def test_backoff_maths(observe):
    waits = backoff_waits()
    observe.equal(retry_reaching_cap=(waits.first_capped_retry, 11),
                  first_waits=([row["factor_1"] for row in waits.rows[:3]], [1, 2, 4]),
                  first_five_total=(waits.window_notes, 31),
                  default_retry_delay=(waits.default_retry_delay, 180),
                  max_retries=(waits.default_max_retries, 3))


def test_the_tasks_guide_options(stack, observe):
    guide = guide_options(stack)
    observe.equal(no_delay_set_logged_wait=(guide.logged_wait, 180))
    names = {"fixed": "fixed_delay", "kwargs": "kwargs_and_backoff", "fraction": "fractional_backoff",
             "forever": "never_gives_up", "permanent": "skip_permanent(Permanent)",
             "transient": "skip_permanent(ConnectionError)"}
    got = {name: guide.outcomes[task] for name, task in names.items()}
    runs = {"fixed": 3, "kwargs": 3, "fraction": 2, "forever": 6, "permanent": 1, "transient": 4}
    observe(**{f"{name}_waits": got[name]["countdowns"] for name in ("fixed", "kwargs", "fraction")})
    observe.equal(**{f"{name}_runs": (row["runs"], runs[name]) for name, row in got.items()},
                  forever_state=(got["forever"]["state"], "SUCCESS"), permanent_error=(got["permanent"]["error"],
                                                                                       "Permanent"),
                  transient_error=(got["transient"]["error"], "ConnectionError"))
    assert [got[name]["countdowns"] for name in ("fixed", "kwargs", "fraction")] == [[1, 1], [1, 2], [2]]
    assert all(wait >= countdown for row in got.values() for wait, countdown in zip(row["waits"], row["countdowns"]))


def test_except_max_retries_around_retry_with_exc_never_runs(stack, observe):
    first, second = except_max(stack).rows
    observe.equal(with_exc_runs=(first["runs"], 3), with_exc_error=(first["error"], "ConnectionError"),
                  with_exc_except_ran=(first["except_ran"], 0), without_exc_runs=(second["runs"], 3),
                  without_exc_error=(second["error"], "MaxRetriesExceededError"),
                  without_exc_except_ran=(second["except_ran"], 1))


def test_wide_autoretry_wastes_attempts_narrow_fails_at_once(stack, observe):
    wide = wasted_retries(stack, "l01.welcome_any_error")
    narrow = wasted_retries(stack, "l01.welcome_narrow")
    observe.equal(wide_requests=(wide.requests, 3), wide_error=(wide.error, "InvalidAddress"),
                  narrow_requests=(narrow.requests, 1), narrow_error=(narrow.error, "InvalidAddress"))


def test_manual_retry_honours_retry_after(stack, observe):
    outcome = retry_after(stack, times=1, seconds=2)
    observe.equal(statuses=(outcome.statuses, [429, 200]), state=(outcome.state, "SUCCESS"),
                  waited_retry_after=(outcome.countdowns == [2] and len(outcome.gaps) == 1
                                      and outcome.gaps[0] >= 2, True),
                  why=f"countdowns {outcome.countdowns}, gaps {outcome.gaps}")


def test_a_backoff_retry_leaves_retry_kwargs_shared_by_other_tasks_alone(observe):
    """Two tasks whose base class holds `retry_kwargs`: a backoff retry of one must not change the other's wait."""
    shared = shared_retry_kwargs()
    observe.equal(states=(shared.states, ["FAILURE", "FAILURE"]), shared_retry_kwargs_after=(shared.retry_kwargs_after, {}),
                  backs_off_waits=(shared.backs_off_waits, [1]), plain_waits=(shared.plain_waits, [180]))
