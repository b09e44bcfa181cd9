"""Site fixtures: a copy of the course with the fixture lesson added, built once per test module."""
from __future__ import annotations

from pathlib import Path

import pytest
from site_helpers import copy_course, mkdocs_build


@pytest.fixture(scope="module")
def course_copy(tmp_path_factory) -> Path:
    return copy_course(tmp_path_factory.mktemp("course"))


@pytest.fixture(scope="module")
def built_site(course_copy: Path) -> Path:
    site_dir = course_copy / "site_build"
    result = mkdocs_build(course_copy / "mkdocs.yml", site_dir)
    assert result.returncode == 0, result.stdout + result.stderr
    return site_dir
