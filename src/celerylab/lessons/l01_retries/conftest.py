"""Fixtures shared by lesson 01's claim tests: one live stack per module (test_claims_idempotency.py has its own, one per database)."""
from __future__ import annotations

import pytest

from celerylab.lessons.l01_retries import helpers


@pytest.fixture(scope="module")
def stack():
    with helpers.start() as running:
        yield running
