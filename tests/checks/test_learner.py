"""The notebook check()/hint() and the terminal commands: verdicts in PT or EN, progress, hints, solutions."""
from __future__ import annotations

import pytest
from grading_files import COURSE, FIXTURE_COURSE

from celerylab import cli
from celerylab.checks import check, hint
from celerylab.checks.learner_state import LearnerState
from celerylab.i18n import set_lang

pytestmark = pytest.mark.live

STUB = "def greet(name, lang):\n    return name\n"
SOLVED = 'def greet(name, lang):\n    return f"Olá, {name}!" if lang == "pt" else f"Hello, {name}!"\n'


@pytest.fixture
def folder(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    (work / "ex_greet.py").write_text(STUB)
    monkeypatch.chdir(work)
    set_lang("pt")
    yield work
    set_lang("pt")


def test_check_records_progress_and_reveals_hints_only_on_request(folder, capsys):
    verdict = check("l90.greet", course=FIXTURE_COURSE)
    out = capsys.readouterr().out
    assert not verdict.passed and "❌ l90.greet: ainda não." in out
    assert "esperado Olá, Ana!, observado Ana" in out
    assert 'hint("l90.greet")' in out and "Dica 1/3" not in out  # offered, not revealed, until asked
    assert LearnerState(course=FIXTURE_COURSE).status("l90.greet") == "failing"
    hint("l90.greet", course=FIXTURE_COURSE)
    assert "💡 Dica 1/3" in capsys.readouterr().out
    check("l90.greet", course=FIXTURE_COURSE)
    out = capsys.readouterr().out
    assert "Dica 2/3" not in out and "Você viu 1 de 3 dicas" in out  # a check never reveals a hint itself
    assert LearnerState(course=FIXTURE_COURSE).hints_shown("l90.greet") == 1
    (folder / "ex_greet.py").write_text(SOLVED)
    assert check("l90.greet", course=FIXTURE_COURSE).passed
    out = capsys.readouterr().out
    assert "Dica" not in out and "➡ Próximo: l90.double" in out    # after a pass: what comes next
    assert LearnerState(course=FIXTURE_COURSE).status("l90.greet") == "passed"


def test_check_inside_a_graded_notebook_defers_to_the_grader(folder, capsys, monkeypatch):
    monkeypatch.setenv("CELERYLAB_GRADING", "1")
    check("l90.greet", course=FIXTURE_COURSE)
    assert "decidido fora deste kernel" in capsys.readouterr().out
    assert LearnerState(course=FIXTURE_COURSE).status("l90.greet") == "not-started"


def test_check_command_in_english_and_exit_codes(folder, capsys):
    assert cli.main(["check", "--lessons-dir", str(COURSE), "l90.greet", "--lang", "en", "--dir", str(folder)]) == 1
    assert "❌ l90.greet: not yet." in capsys.readouterr().out
    (folder / "ex_greet.py").write_text(SOLVED)
    assert cli.main(["check", "--lessons-dir", str(COURSE), "--dir", str(folder), "--lang", "en"]) == 0   # every module found in the folder
    assert "✅ l90.greet: passed" in capsys.readouterr().out
    assert cli.main(["check", "--lessons-dir", str(COURSE), "l90.nope"]) == 2
    assert "Unknown exercise: l90.nope" in capsys.readouterr().err


def test_progress_command(folder, capsys):
    check("l90.greet", course=FIXTURE_COURSE)
    capsys.readouterr()
    assert cli.main(["progress", "--lessons-dir", str(COURSE)]) == 0
    out = capsys.readouterr().out
    assert "l90.double" in out and "não iniciado" in out and "com falha" in out
    assert "Concluídos: 0/2 · com falha: 1 · não iniciados: 1" in out
    assert cli.main(["progress", "--lessons-dir", str(COURSE), "--lang", "en"]) == 0                # the English course is another progress
    assert "Done: 0/2 · failing: 0 · not started: 2" in capsys.readouterr().out


def test_solution_is_refused_before_a_pass_then_printed(folder, capsys):
    assert cli.main(["solution", "--lessons-dir", str(COURSE), "l90.greet"]) == 1
    assert "depois que a verificação passar" in capsys.readouterr().err
    (folder / "ex_greet.py").write_text(SOLVED)
    check("l90.greet", course=FIXTURE_COURSE)
    capsys.readouterr()
    assert cli.main(["solution", "--lessons-dir", str(COURSE), "l90.greet", "--lang", "en"]) == 1   # passed in Portuguese: progress is per language
    capsys.readouterr()
    set_lang("en")
    check("l90.greet", course=FIXTURE_COURSE)
    capsys.readouterr()
    assert cli.main(["solution", "--lessons-dir", str(COURSE), "l90.greet", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Solution of l90.greet:")
    assert 'return f"Olá, {name}!" if lang == "pt"' in out and "STUB" not in out


def test_solution_without_a_solutions_notebook_is_reported(folder, capsys):
    LearnerState(lang="en", course=FIXTURE_COURSE).record("l90.double", passed=True)
    assert cli.main(["solution", "--lessons-dir", str(COURSE), "l90.double", "--solutions", str(folder / "none"), "--lang", "en"]) == 1
    captured = capsys.readouterr()
    assert "l90.double" in captured.err and "return x * 2" not in captured.out


def test_hint_command(folder, capsys):
    assert cli.main(["hint", "--lessons-dir", str(COURSE), "l90.double", "--lang", "en"]) == 0
    assert capsys.readouterr().out.strip() == "💡 Hint 1/2: The task must return twice x."
