"""Fixtures for the build tests: the tiny fixture lesson, and its course built (executed) once per module."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from celerylab.course import Course
from celerylab.compiler.pipeline import build

FIXTURES = Path(__file__).parent / "fixtures" / "lessons"


@pytest.fixture(autouse=True)
def keep_language(monkeypatch):
    """The CLI's --lang and set_lang() change process-wide state; put it back after each test."""
    from celerylab import i18n

    monkeypatch.setattr(i18n, "_current", i18n._current)
    monkeypatch.setenv("CELERYLAB_LANG", os.environ.get("CELERYLAB_LANG", "pt"))


@pytest.fixture
def fixture_lessons(tmp_path) -> Path:
    """A private copy of the fixture lessons folder, safe to edit."""
    target = tmp_path / "lessons"
    shutil.copytree(FIXTURES, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


@pytest.fixture(scope="module")
def built_course(tmp_path_factory):
    """(root, lessons) with the fixture lesson built and executed into a temp course root."""
    base = tmp_path_factory.mktemp("course")
    lessons_dir = base / "lessons"
    shutil.copytree(FIXTURES, lessons_dir, ignore=shutil.ignore_patterns("__pycache__"))
    lessons = Course(lessons_dir, lessons_dir / "course.yml").lessons()
    reports = build(lessons, base / "out", parallel=4, timeout=120)
    assert [failure for report in reports for failure in report.failures] == []
    return base / "out", lessons
