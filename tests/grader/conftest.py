"""The grader tests' fixtures: the fixture course (tests/checks/fixtures) on the path, a private progress home for every test."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "checks" / "fixtures"))

import pytest  # noqa: E402
from grading_files import fixture_course  # noqa: E402,F401  (autouse: the fixture course, a private home)

from celerylab.grader.signing import KEY_ENV  # noqa: E402


@pytest.fixture
def grading_key(monkeypatch):
    """The key the grader and the workers share (remote grading), in this process's environment and so in the
    workers a test's stack starts."""
    monkeypatch.setenv(KEY_ENV, "a test key shared by the grader and its workers")
    return KEY_ENV
