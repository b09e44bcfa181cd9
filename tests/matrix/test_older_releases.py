"""Each older release line's recorded observations were measured on the inputs each lesson has now (by digest, in
seconds); `celerylab matrix --stale` measures again, live, the lessons whose inputs changed."""
from __future__ import annotations

from celerylab.matrix import freshness


def test_every_older_release_observation_was_measured_on_todays_inputs():
    found = freshness.stale()
    assert not found, freshness.report(found, "en")
