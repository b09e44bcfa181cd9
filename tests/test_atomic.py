"""The one atomic writer: the old content or the new, never a torn file, and no temporary file left behind."""
from __future__ import annotations

import os

import pytest

from celerylab import atomic


def test_write_replaces_the_content_and_leaves_only_the_file(tmp_path):
    path = tmp_path / "deep" / "out.json"
    atomic.write_text(path, "é\n")
    atomic.write_bytes(path, b"new")
    assert path.read_bytes() == b"new" and [p.name for p in path.parent.iterdir()] == ["out.json"]
    atomic.write_json(path, {"b": 1, "a": "é"})
    assert atomic.read_json(path) == {"a": "é", "b": 1} and atomic.read_json(tmp_path / "none", "-") == "-"


def test_a_failed_rename_keeps_the_old_content_and_removes_the_temporary(tmp_path, monkeypatch):
    path = tmp_path / "out.txt"
    path.write_text("old")

    def refuse(source, target):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        atomic.write_text(path, "new")
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]
