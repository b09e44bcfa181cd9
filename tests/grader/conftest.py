"""Fixtures for the grader tests: the fixture course (tests/checks/fixtures) on the path, a private progress home for every test."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "checks" / "fixtures"))

from grading_files import COURSE  # noqa: E402  (the fixture course, by path)


@pytest.fixture(autouse=True)
def fixture_course(monkeypatch, tmp_path):
    """Every grading test sees the fixture course and keeps its progress in its own folder."""
    monkeypatch.setenv("CELERYLAB_COURSE_ROOT", str(COURSE))
    monkeypatch.setenv("CELERYLAB_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CELERYLAB_GRADING", raising=False)
    yield COURSE
