"""The schedule file's dbm: the modules this Python has, and the one a shelf is written with."""
from __future__ import annotations

import shelve

from celerylab.lessons.l05_beat import schedule_file


def test_a_new_shelf_is_written_with_the_first_available_module(tmp_path):
    path = tmp_path / "celerybeat-schedule"
    with shelve.open(str(path)) as shelf:
        shelf["entry"] = 1
    assert schedule_file.written_with(path) == schedule_file.available()[0]


def test_dumb_is_always_available_and_a_missing_file_has_no_module(tmp_path):
    assert "dbm.dumb" in schedule_file.available()
    assert schedule_file.written_with(tmp_path / "none") is None
