"""Fixtures shared by lesson 04's claim tests: one stack per module, and an HTTP client of its shop API."""
from __future__ import annotations

import pytest

from celerylab.lessons.l04_results import helpers


@pytest.fixture(scope="module")
def stack():
    with helpers.start() as running:
        yield running


@pytest.fixture(scope="module")
def http(stack):
    with helpers.client(stack) as client:
        yield client
