"""Fixtures for the compiler tests: a private, editable copy of the fixture lessons (built_course is in tests/conftest.py)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "lessons"


@pytest.fixture
def fixture_lessons(tmp_path) -> Path:
    """A private copy of the fixture lessons folder, safe to edit."""
    target = tmp_path / "lessons"
    shutil.copytree(FIXTURES, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target
