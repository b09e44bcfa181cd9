"""`celerylab reset EXERCISE`: progress and hints forgotten, the answer cell back to its stub, its module gone."""
from __future__ import annotations

import sys
from pathlib import Path

import nbformat

from celerylab import cli
from celerylab.checks.learner_state import LearnerState
from celerylab.course import Course

FIXTURES = Path(__file__).parents[1] / "checks" / "fixtures"
sys.path.insert(0, str(FIXTURES))
import notebooks  # noqa: E402

COURSE = FIXTURES / "course"


def test_reset_one_exercise(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CELERYLAB_ROOT", str(tmp_path))
    monkeypatch.setenv("CELERYLAB_HOME", str(tmp_path / "home"))
    path = tmp_path / "exercises" / "en" / "90_fixture_exercises.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(notebooks.build("en", "exercises", {"greet": "solution", "double": "solution"}), str(path))
    (path.parent / "ex_greet.py").write_text("solved")
    course = Course.at(COURSE, tmp_path)  # the course the command resolves: its notebooks in $CELERYLAB_ROOT
    state = LearnerState(lang="en", course=course)
    state.record("l90.greet", passed=True)
    state.record("l90.double", passed=True)
    state.reveal_hint("l90.greet", 3)
    assert cli.main(["reset", "l90.greet", "--lessons-dir", str(COURSE), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Progress and hints of l90.greet cleared." in out and "back to its stub" in out
    again = LearnerState(lang="en", course=course)
    assert again.status("l90.greet") == "not-started" and again.hints_shown("l90.greet") == 0
    assert again.passed("l90.double")                                       # only that exercise
    stub = notebooks.build("en", "exercises")
    cells = {c.id: c.source for c in nbformat.read(str(path), as_version=4).cells}
    assert all(cells[c.id] == c.source for c in stub.cells if "greet" in c.id)
    assert any(cells[c.id] != c.source for c in stub.cells if "double" in c.id)  # the other answer is kept
    assert not (path.parent / "ex_greet.py").exists()
