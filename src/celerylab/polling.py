"""Waiting for a condition with a deadline, instead of a blind sleep; a deadline several steps share."""
from __future__ import annotations

import time


def until(condition, timeout: float = 10.0, step: float = 0.05):
    """Poll `condition` until it returns something truthy (returned); None when `timeout` passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    return None


def read_until(read, done=bool, timeout: float = 10.0, step: float = 0.05):
    """Call `read()` until `done(value)` holds or `timeout` passes; return the last value read.

    Unlike `until`, it reads at least once (a zero timeout reads once), every sleep is followed by a read,
    and when time runs out the caller gets the last value seen rather than None: for "wait for this state,
    and tell me which state it was in if it never came" (the caller decides whether that is an error).
    """
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if done(value) or time.monotonic() >= deadline:
            return value
        time.sleep(step)


class Deadline:
    """A time budget several steps share (a notebook's cells, say): ``remaining()`` seconds, ``passed``."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self._at = time.monotonic() + seconds

    def remaining(self) -> float:
        """Seconds left, 0 once the deadline passed."""
        return max(0.0, self._at - time.monotonic())

    @property
    def passed(self) -> bool:
        return time.monotonic() >= self._at
