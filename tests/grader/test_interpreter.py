"""A venv run on another Python than its own (its base unreadable to this user): the grader names the machine's
installation, never a learner and never the package, when its jobs cannot import the course."""
from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

import pytest

from celerylab.commands.grade import BadOption
from celerylab.course import PACKAGE
from celerylab.grader.interpreter import ForeignBase, foreign_base

# What a job logs when a venv made from pyenv's 3.11.7 (redis then needs no async_timeout) runs on the system's 3.11.2
PROBE_LOG = '''--- job0.log
  File "/srv/course/.venv/lib/python3.11/site-packages/redis/asyncio/connection.py", line 61, in <module>
    from async_timeout import timeout as async_timeout
ModuleNotFoundError: No module named 'async_timeout'
'''


def venv(folder: Path, **settings: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "pyvenv.cfg").write_text("".join(f"{key} = {value}\n" for key, value in settings.items()))
    return folder


def test_a_venv_run_by_another_python_names_its_own_base(tmp_path):
    made = venv(tmp_path / "venv", home="/root/.pyenv/versions/3.11.7/bin", version="3.11.7",
                executable="/root/.pyenv/versions/3.11.7/bin/python3.11")
    assert foreign_base(str(made), "/usr", "3.11.2") == \
        ForeignBase(Path("/root/.pyenv/versions/3.11.7"), "3.11.7", "3.11.2", Path("/usr"))
    assert foreign_base(str(made), "/usr", "3.11.2").detail() == \
        "Python 3.11.2 (/usr) != 3.11.7 (/root/.pyenv/versions/3.11.7)"


@pytest.mark.parametrize("settings, running", [
    ({"home": "/usr/bin", "version": "3.11.2"}, "3.11.2"),  # its own Python
    ({"home": "/opt/py/bin", "version_info": "3.12.4.final.0"}, "3.12.4"),  # virtualenv's spelling
    ({"home": "/opt/py/bin"}, "3.12.4"),  # no version written: nothing to compare
])
def test_a_venv_on_its_own_python_is_not_foreign(tmp_path, settings, running):
    assert foreign_base(str(venv(tmp_path / "venv", **settings)), "/opt/py", running) is None


def test_outside_a_venv_nothing_is_foreign(tmp_path):
    assert foreign_base(str(tmp_path), str(tmp_path), "3.11.2") is None
    assert foreign_base(str(tmp_path / "missing"), "/usr", "3.11.2") is None  # no pyvenv.cfg


@pytest.fixture
def refused(tmp_path, monkeypatch):
    """jobs_can_import's refusal, in English, when the probe job logs `PROBE_LOG` (no job is started)."""
    from celerylab import i18n
    from celerylab.commands import grade
    from celerylab.grader import job_supervisor

    monkeypatch.setattr(i18n, "_current", "en")
    monkeypatch.setattr(job_supervisor, "probe", lambda course: PROBE_LOG)

    def refusal() -> str:
        with pytest.raises(BadOption) as raised:
            grade.jobs_can_import(None, tmp_path / "out")
        assert (tmp_path / "out" / "logs" / "probe.log").read_text() == PROBE_LOG
        return str(raised.value)
    return refusal


def test_jobs_failing_on_another_python_are_refused_naming_its_base_not_the_package(tmp_path, monkeypatch, refused):
    made = "3.10.0" if platform.python_version() != "3.10.0" else "3.12.0"
    base = tmp_path / "root-only" / "pyenv" / made
    monkeypatch.setattr(sys, "prefix", str(venv(tmp_path / "venv", home=str(base / "bin"), version=made)))
    monkeypatch.setattr(sys, "base_prefix", "/usr")
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    message = refused()
    assert f"make {base} and the folders above it readable" in message, message
    assert f"Python {platform.python_version()} (/usr) != {made} ({base})" in message
    assert "user 1000," in message  # without root the job runs as the caller, not a user of its own
    assert "async_timeout" not in message and str(PACKAGE.parent) not in message


def test_jobs_failing_on_their_own_python_still_get_the_import_error_and_the_package(tmp_path, monkeypatch, refused):
    monkeypatch.setattr(sys, "prefix", str(venv(tmp_path / "venv", home="/usr/bin", version=platform.python_version())))
    monkeypatch.setattr(sys, "base_prefix", "/usr")
    message = refused()
    assert "No module named 'async_timeout'" in message and f"make {PACKAGE.parent} and" in message, message
