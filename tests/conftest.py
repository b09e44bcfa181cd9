"""Fixtures shared by several test folders: the fixture lesson (tests/compiler/fixtures) built once per module."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from celerylab.compiler.pipeline import build
from celerylab.course import Course

FIXTURE_LESSONS = Path(__file__).parent / "compiler" / "fixtures" / "lessons"


@pytest.fixture(scope="module")
def built_course(tmp_path_factory):
    """(root, lessons) with the fixture lesson built and executed into a temp course root."""
    base = tmp_path_factory.mktemp("course")
    lessons_dir = base / "lessons"
    shutil.copytree(FIXTURE_LESSONS, lessons_dir, ignore=shutil.ignore_patterns("__pycache__"))
    lessons = Course(lessons_dir, lessons_dir / "course.yml").lessons()
    reports = build(lessons, base / "out", parallel=4, timeout=120)
    assert [failure for report in reports for failure in report.failures] == []
    return base / "out", lessons
