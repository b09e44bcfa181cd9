"""`celerylab hint` without an exercise lists the exercises; `celerylab progress` names each by its title."""
from __future__ import annotations

from celerylab import cli
from celerylab.course import Course


def test_hint_without_an_exercise_lists_every_id_and_title(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CELERYLAB_HOME", str(tmp_path / "home"))
    assert cli.main(["hint", "--lang", "en"]) == 2
    captured = capsys.readouterr()
    assert "celerylab hint l01.welcome_once" in captured.err
    for info in Course.at().all_exercises():
        assert info.id in captured.out and info.title["en"] in captured.out


def test_progress_shows_each_exercise_title_in_the_learners_language(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CELERYLAB_HOME", str(tmp_path / "home"))
    for lang in ("pt", "en"):
        assert cli.main(["progress", "--lang", lang]) == 0
        out = capsys.readouterr().out
        for info in Course.at().all_exercises():
            line = next(line for line in out.splitlines() if info.id in line)
            assert line.rstrip().endswith(info.title[lang]), line


def test_progress_says_it_is_kept_per_language_and_names_the_other(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CELERYLAB_HOME", str(tmp_path / "home"))
    assert cli.main(["progress", "--lang", "pt"]) == 0
    assert "progresso dos cadernos em português" in capsys.readouterr().out
    assert cli.main(["progress", "--lang", "en"]) == 0
    assert "celerylab progress --lang pt" in capsys.readouterr().out
