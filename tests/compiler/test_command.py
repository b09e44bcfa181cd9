"""`celerylab build` from the command line: generation, --check naming stale files, selection, errors."""
from __future__ import annotations

from celerylab.cli import main


def run(capsys, *argv):
    code = main(["--lang", "en", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_build_then_check(fixture_lessons, tmp_path, capsys):
    where = ["--root", str(tmp_path / "out"), "--lessons-dir", str(fixture_lessons)]
    code, out, err = run(capsys, "build", "--no-execute", *where)
    assert code == 0 and "l99_fixture: 6 written" in out
    assert run(capsys, "build", "--check", "--no-execute", *where)[0] == 0
    code, _, err = run(capsys, "build", "--check", *where)
    assert code == 1 and "stale: notebooks/pt/99_fixture.ipynb (not executed yet)" in err

    source = fixture_lessons / "l99_fixture" / "lesson.md"
    source.write_text(source.read_text(encoding="utf-8").replace("two numbers", "2 numbers"), encoding="utf-8")
    code, _, err = run(capsys, "build", "--check", "--no-execute", *where)
    assert code == 1 and "stale: exercises/en/99_fixture_exercises.ipynb (content differs from the source)" in err
    assert "6 stale file(s)" in err


def test_selection_and_errors(fixture_lessons, tmp_path, capsys):
    where = ["--root", str(tmp_path / "out"), "--lessons-dir", str(fixture_lessons)]
    code, _, _ = run(capsys, "build", "--no-execute", "--lang", "en", "--lesson", "l99_fixture", *where)
    assert code == 0 and sorted(p.parent.name for p in (tmp_path / "out").rglob("*.ipynb")) == ["en"] * 3
    code, _, err = run(capsys, "build", "--lesson", "l42_nope", *where)
    assert code == 1 and "Lesson 'l42_nope' is not in course.yml" in err
    source = fixture_lessons / "l99_fixture" / "lesson.md"
    source.write_text(source.read_text(encoding="utf-8").replace("::: en\n# Test lesson", "::: de\n# Test"),
                      encoding="utf-8")
    code, _, err = run(capsys, "build", "--check", *where)
    assert code == 1 and f"{source}:7: unknown language block 'de'" in err


def test_help_is_translated(capsys):
    import pytest

    with pytest.raises(SystemExit):
        main(["--lang", "pt", "build", "--help"])
    assert "não gera nada" in capsys.readouterr().out
