"""`celerylab collect`: the submissions folder and roster from the homes, refusals as one line and an exit code."""
from __future__ import annotations

from datetime import datetime, timezone

from celerylab import cli
from celerylab.hub import homes
from celerylab.hub.handed_in import Learner, Notebook


def test_from_homes_writes_what_grade_reads(tmp_path, monkeypatch, capsys):
    when = datetime(2026, 12, 6, tzinfo=timezone.utc)
    found = [Learner("ana", notebooks=[Notebook("01_retries_exercises.ipynb", b"{}", when)]), Learner("bia")]
    monkeypatch.setattr(homes, "learners", lambda prefix: found if prefix == "clab-" else [])
    monkeypatch.setattr("os.geteuid", lambda: 0)
    assert cli.main(["--lang", "en", "collect", "--out", str(tmp_path / "subs")]) == 0
    assert (tmp_path / "subs" / "ana" / "01_retries" / "01_retries_exercises.ipynb").read_bytes() == b"{}"
    assert (tmp_path / "subs" / "roster.csv").read_text().splitlines()[1:] == ["ana,ana,,,,ana,,", "bia,bia,,,,bia,,"]
    assert "1 notebook(s) of 2 learner(s)" in capsys.readouterr().out


def test_refusals(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    assert cli.main(["--lang", "en", "collect", "--out", str(tmp_path), "--hub", "http://127.0.0.1:9"]) == 2
    assert "--token" in capsys.readouterr().err
    monkeypatch.setattr("os.geteuid", lambda: 1000)
    assert cli.main(["--lang", "en", "collect", "--out", str(tmp_path)]) == 2
    assert "root" in capsys.readouterr().err
    monkeypatch.setattr("os.geteuid", lambda: 0)
    monkeypatch.setattr(homes, "learners", lambda prefix: [])
    assert cli.main(["--lang", "en", "collect", "--out", str(tmp_path)]) == 1
    assert "clab-*" in capsys.readouterr().err
