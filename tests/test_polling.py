"""Waiting for a condition with a deadline: the first truthy value, or None once the deadline passes."""
from __future__ import annotations

import time

from celerylab.polling import until


def test_until_returns_the_first_truthy_value_and_none_after_the_deadline():
    seen = iter([0, "", None, "ready", "later"])
    assert until(lambda: next(seen), timeout=5, step=0.001) == "ready"
    started = time.monotonic()
    assert until(lambda: False, timeout=0.2, step=0.01) is None
    assert 0.2 <= time.monotonic() - started < 10  # not before the deadline (the behaviour), and not long after
