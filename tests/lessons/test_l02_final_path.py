"""Lesson 02's final-path watch: a replacement in one step is clean; writing, truncating or re-creating the path is not."""
from __future__ import annotations

import os
import shutil
import sys

import pytest

from celerylab.lessons.l02_workers.final_path import FinalPaths

MODES = [pytest.param(True, marks=pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's: run the suite on Linux to cover the inotify mode"),
                      id="inotify"), pytest.param(False, id="hard-link witness")]


def previous(tmp_path):
    (tmp_path / "export.csv").write_text("row 0\nrow 1\n", encoding="utf-8")
    (tmp_path / "export.csv.part").write_text("row 0\nrow 1\nrow 2\n", encoding="utf-8")
    return str(tmp_path / "export.csv")


@pytest.mark.parametrize("inotify", MODES)
def test_a_rename_onto_the_path_is_a_replacement_in_one_step(tmp_path, inotify):
    path = previous(tmp_path)
    with FinalPaths(tmp_path, ("export.csv",), inotify=inotify) as watch:
        os.replace(path + ".part", path)
    assert watch.written == []


@pytest.mark.parametrize("inotify", MODES)
def test_nothing_done_to_the_path_is_clean(tmp_path, inotify):
    previous(tmp_path)
    with FinalPaths(tmp_path, ("export.csv",), inotify=inotify) as watch:
        (tmp_path / "export.csv.part").unlink()
        (tmp_path / "other.csv").write_text("x", encoding="utf-8")
    assert watch.written == []


@pytest.mark.parametrize("inotify", MODES)
@pytest.mark.parametrize("overwrite", [
    lambda path: shutil.copyfile(path + ".part", path),
    lambda path: open(path, "w").close(),
    lambda path: os.truncate(path, 0),
], ids=["copy over", "open for writing", "truncate"])
def test_writing_over_the_path_is_seen(tmp_path, inotify, overwrite):
    path = previous(tmp_path)
    with FinalPaths(tmp_path, ("export.csv",), inotify=inotify) as watch:
        overwrite(path)
    assert watch.written and watch.written[0].startswith("export.csv:")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's: run the suite on Linux to cover the inotify mode")
def test_removing_then_writing_the_path_is_seen(tmp_path):
    path = previous(tmp_path)
    with FinalPaths(tmp_path, ("export.csv",)) as watch:
        os.remove(path)
        shutil.copyfile(path + ".part", path)
    assert watch.written == ["export.csv: close_write, create, delete, modify"]
