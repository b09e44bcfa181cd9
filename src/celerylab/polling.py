"""Waiting for a condition with a deadline, instead of a blind sleep."""
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
