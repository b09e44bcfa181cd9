"""Fixtures shared by lesson 02's claim tests: one live stack per module."""
from __future__ import annotations

import pytest

from celerylab.lessons.l02_workers import helpers


@pytest.fixture(scope="module")
def lab():
    with helpers.start() as running:
        yield running
