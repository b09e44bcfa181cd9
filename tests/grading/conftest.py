"""Fixtures for the grading tests: the fixture course on the path, a private progress home, submissions."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
import pytest

FIXTURES = Path(__file__).parent / "fixtures"
sys.path.insert(0, str(FIXTURES))

import notebooks  # noqa: E402  (the fixture course's notebook builder)

COURSE = FIXTURES / "course"
EXERCISES = FIXTURES / "exercises"


@pytest.fixture(autouse=True)
def fixture_course(monkeypatch, tmp_path):
    """Every grading test sees the fixture course and keeps its progress in its own folder."""
    monkeypatch.setenv("CELERYLAB_COURSE_ROOT", str(COURSE))
    monkeypatch.setenv("CELERYLAB_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CELERYLAB_GRADING", raising=False)
    yield COURSE


def write_notebook(path: Path, notebook) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, str(path))
    return path


def write_raw(path: Path, data) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path
