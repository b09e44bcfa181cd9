"""Fixtures shared by lesson 03's claim tests: one live stack per module."""
from __future__ import annotations

import pytest

from celerylab.lessons.l03_silent_defects import helpers


@pytest.fixture(scope="module")
def stack():
    with helpers.start() as running:
        yield running
