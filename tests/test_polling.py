"""Waiting for a condition with a deadline: `until` (the first truthy value, or None once the deadline passes)
and `read_until` (the first value `done` accepts, or the last value read once the deadline passes)."""
from __future__ import annotations

import time

from celerylab.polling import read_until, until


def test_until_returns_the_first_truthy_value_and_none_after_the_deadline():
    seen = iter([0, "", None, "ready", "later"])
    assert until(lambda: next(seen), timeout=5, step=0.001) == "ready"
    started = time.monotonic()
    assert until(lambda: False, timeout=0.2, step=0.01) is None
    assert 0.2 <= time.monotonic() - started < 10  # not before the deadline (the behaviour), and not long after


def test_read_until_stops_at_the_first_value_done_accepts():
    reads = []
    values = iter([1, 2, 3, 4, 5])

    def read():
        reads.append(next(values))
        return reads[-1]

    assert read_until(read, lambda value: value >= 3, timeout=5, step=0.001) == 3
    assert reads == [1, 2, 3]  # nothing read after the value that was wanted
    assert read_until(iter([0, "", "ready"]).__next__, timeout=5, step=0.001) == "ready"  # done defaults to bool


def test_read_until_reads_once_even_with_no_time_left():
    calls = []
    assert read_until(lambda: calls.append(1) or len(calls), lambda value: False, timeout=0) == 1
    assert calls == [1]  # `until` would not have called it at all, and returned None


def test_read_until_returns_the_last_value_read_once_the_deadline_passes():
    calls = []

    def read():
        calls.append(time.monotonic())
        return len(calls)

    started = time.monotonic()
    last = read_until(read, lambda value: False, timeout=0.2, step=0.05)
    assert time.monotonic() - started >= 0.2  # not before the deadline
    assert len(calls) > 1 and last == len(calls)  # the newest value, not the first nor None
    assert len(calls) <= 6  # a read continues only before the deadline, after a sleep of `step`: at most 0.2/0.05 + 1


def test_a_deadline_is_shared_by_the_steps_that_read_it():
    from celerylab.polling import Deadline

    budget = Deadline(0.3)
    assert not budget.passed and 0.1 < budget.remaining() <= 0.3
    time.sleep(0.1)
    assert budget.remaining() <= 0.2  # one clock for every step, not a fresh budget each time
    time.sleep(0.25)
    assert budget.passed and budget.remaining() == 0.0
