"""The grader tests' fixtures: the fixture course (tests/checks/fixtures) on the path, a private progress home for every test."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "checks" / "fixtures"))

from grading_files import fixture_course  # noqa: E402,F401  (autouse: the fixture course, a private home)
