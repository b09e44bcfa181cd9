"""Lesson 02's export check puts the worker's temp folder on another file system than the export's folder."""
from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import pytest

from celerylab.lessons.l02_workers.checks import other_file_system


def test_a_place_on_the_same_file_system_is_not_another_one(tmp_path):
    (tmp_path / "same").mkdir()
    assert other_file_system(tmp_path, (str(tmp_path / "same"), str(tmp_path / "missing"))) is None


@pytest.mark.skipif(not (os.path.isdir("/dev/shm")
                         and os.stat("/dev/shm").st_dev != os.stat(tempfile.gettempdir()).st_dev),
                    reason="no /dev/shm of its own here: run the suite on Linux, where /dev/shm is a tmpfs, to cover it")
def test_the_temp_folder_goes_where_a_rename_from_it_onto_the_export_fails(tmp_path):
    place = other_file_system(tmp_path)
    assert place is not None and os.stat(place).st_dev != os.stat(tmp_path).st_dev
    partial = Path(tempfile.mkdtemp(dir=place)) / "export.part"
    try:
        partial.write_text("row 0\n", encoding="utf-8")
        with pytest.raises(OSError) as raised:
            os.replace(partial, tmp_path / "export.csv")
        assert raised.value.errno == errno.EXDEV  # EXDEV: what the answer that renames from its temp folder meets
    finally:
        partial.unlink(missing_ok=True)
        partial.parent.rmdir()


def test_without_a_second_file_system_the_check_says_it_did_not_test_the_rename():
    from celerylab.checks.verdict import Criterion

    line = Criterion("l02.check.temp_same_file_system", True, True, True, values={"temp": "/tmp/x"})
    assert "not tested" in line.label("en") and "/tmp/x" in line.label("en")
    assert "não testado" in line.label("pt") and "/tmp/x" in line.label("pt")
