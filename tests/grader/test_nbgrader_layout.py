"""nbgrader's submitted layout: keys per learner, the roster matches the learner's folder, timestamp.txt dates it."""
from __future__ import annotations

import os
from datetime import datetime, timezone

from celerylab.grader import nbgrader_layout
from celerylab.grader.batch import base_entry
from celerylab.grader.intake import find
from celerylab.grader.roster import match


def hand_in(base, learner, assignment, stamp: str | None):
    folder = base / learner / assignment
    folder.mkdir(parents=True)
    (folder / f"{assignment}_exercises.ipynb").write_text("{}")
    if stamp is not None:
        (folder / "timestamp.txt").write_text(stamp)
    return folder


def test_keys_are_learner_assignment_notebook_and_the_roster_matches_the_learner(tmp_path):
    hand_in(tmp_path, "ana", "l01_retries", None)
    hand_in(tmp_path, "bia", "l01_retries", None)
    found = list(find(tmp_path))
    assert [each.key for each in found] == ["ana/l01_retries/l01_retries_exercises",
                                            "bia/l01_retries/l01_retries_exercises"]
    roster = {"ana": {"file": "ana", "learner": "Ana"}, "bia": {"file": "bia", "learner": "Bia"}}
    assert [match(roster, each.key)["learner"] for each in found] == ["Ana", "Bia"]


def test_timestamp_txt_dates_the_entry_not_the_files_time(tmp_path):
    hand_in(tmp_path, "ana", "l01_retries", "2026-12-01 23:59:30.250000 UTC\n")
    (found,) = find(tmp_path)
    os.utime(found.path, (0, 0))
    entry = base_entry(found, None)
    assert datetime.fromisoformat(entry.submitted) == datetime(2026, 12, 1, 23, 59, 30, tzinfo=timezone.utc)


def test_without_a_usable_timestamp_the_files_time_counts(tmp_path):
    for learner, stamp in (("ana", None), ("bia", "not a date"), ("caio", "x" * 500)):
        hand_in(tmp_path, learner, "l01", stamp)
    os.mkfifo(hand_in(tmp_path, "dani", "l01", None) / "timestamp.txt")  # opening it would block
    for found in find(tmp_path):
        os.utime(found.path, (86400, 86400))
        assert datetime.fromisoformat(base_entry(found, None).submitted).timestamp() == 86400, found.key


def test_a_timestamp_elsewhere_than_the_layouts_place_is_ignored(tmp_path):
    (tmp_path / "ana").mkdir()
    (tmp_path / "ana" / "l01_exercises.ipynb").write_text("{}")
    (tmp_path / "ana" / "timestamp.txt").write_text("2020-01-01 00:00:00.000000 UTC")
    (found,) = find(tmp_path)
    assert nbgrader_layout.submitted_at(found.path, found.file) is None


def test_written_timestamps_read_back(tmp_path):
    folder = hand_in(tmp_path, "ana", "l01", None)
    when = datetime(2026, 12, 6, 4, 0, 1, tzinfo=timezone.utc)
    nbgrader_layout.write(folder, when)
    (found,) = find(tmp_path)
    assert nbgrader_layout.submitted_at(found.path, found.file) == when.isoformat()
