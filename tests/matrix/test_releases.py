"""The release lines: oldest first, each pinning a Celery and its kombu, the course's own among them."""
from __future__ import annotations

from importlib import metadata

import pytest

from celerylab.matrix.releases import RELEASES, release


def test_three_release_lines_oldest_first_and_the_course_runs_the_newest():
    assert [each.line for each in RELEASES] == ["5.5", "5.6", "5.7"]
    assert all(each.celery.startswith(each.line + ".") and each.kombu.startswith(each.line + ".") for each in RELEASES)
    assert RELEASES[-1].is_installed() and RELEASES[-1].celery == metadata.version("celery")
    assert not RELEASES[0].is_installed()
    assert release("5.6").pins() == ["celery[redis]==5.6.3", "kombu==5.6.2"]
    with pytest.raises(KeyError):
        release("4.4")
