"""Only the learner's own work counts: the lesson and solutions notebooks run solved answers and record nothing."""
from __future__ import annotations

import pytest
from grading_files import COURSE, FIXTURE_COURSE, write_notebook

import notebooks
from celerylab import cli
from celerylab.checks import check
from celerylab.checks.check_origin import SESSION_ENV, counts, folder_variant, notebook_variant
from celerylab.checks.learner_state import LearnerState
from celerylab.course import Course
from celerylab.i18n import set_lang

SOLVED = 'def greet(name, lang):\n    return f"Olá, {name}!" if lang == "pt" else f"Hello, {name}!"\n'


@pytest.fixture
def course_folders(tmp_path, monkeypatch):
    """notebooks/pt (the lesson, solved), exercises/pt: each with its notebook and a solved module beside it."""
    set_lang("pt")
    monkeypatch.delenv(SESSION_ENV, raising=False)
    monkeypatch.delenv("CELERYLAB_CHECK_HIDDEN", raising=False)
    folders = {}
    for variant, folder in (("solutions", "notebooks"), ("exercises", "exercises")):
        where = tmp_path / folder / "pt"
        notebook = notebooks.build("pt", variant)
        if variant == "solutions":  # the lesson notebook: the solved cells, metadata variant "lesson"
            notebook.metadata["celerylab"]["variant"] = "lesson"
        write_notebook(where / "90_fixture.ipynb", notebook)
        (where / "ex_greet.py").write_text(SOLVED)
        folders[folder] = where
    yield folders
    set_lang("pt")


def test_the_variant_comes_from_jupyters_session_path_else_from_the_folder(course_folders, monkeypatch):
    lesson, exercises = course_folders["notebooks"], course_folders["exercises"]
    assert folder_variant(lesson) == "lesson" and folder_variant(exercises) == "exercises"
    assert folder_variant(lesson / "nothing-here") is None and counts(None)
    monkeypatch.setenv(SESSION_ENV, str(lesson / "90_fixture.ipynb"))
    assert notebook_variant(exercises) == "lesson"          # the session's notebook wins over the folder
    monkeypatch.setenv(SESSION_ENV, str(exercises / "90_fixture.ipynb"))
    assert notebook_variant(lesson) == "exercises"


def test_running_the_lesson_notebook_records_nothing_and_unlocks_nothing(course_folders, monkeypatch, capsys):
    lesson = course_folders["notebooks"]
    monkeypatch.chdir(lesson)
    monkeypatch.setenv(SESSION_ENV, str(lesson / "90_fixture.ipynb"))
    assert check("l90.greet", course=FIXTURE_COURSE).passed
    out = capsys.readouterr().out
    assert "✅ l90.greet: passou" in out and "➡" not in out    # the lesson's output is as before
    assert LearnerState(course=FIXTURE_COURSE).status("l90.greet") == "not-started"
    assert cli.main(["solution", "--lessons-dir", str(COURSE), "l90.greet"]) == 1            # still locked
    assert cli.main(["check", "--lessons-dir", str(COURSE), "l90.greet"]) == 0               # the terminal, in the lesson's folder: not counted
    assert LearnerState(course=FIXTURE_COURSE).status("l90.greet") == "not-started"


def test_the_exercises_notebook_records_and_unlocks(course_folders, monkeypatch, capsys):
    exercises = course_folders["exercises"]
    monkeypatch.chdir(exercises)
    monkeypatch.setenv(SESSION_ENV, "exercises/pt/90_fixture.ipynb")  # relative to the lab's root
    monkeypatch.setenv("CELERYLAB_ROOT", str(exercises.parent.parent))
    in_the_lab = Course.at(COURSE, exercises.parent.parent)  # the kernel's course: notebooks in the lab's root
    assert check("l90.greet", course=in_the_lab).passed
    assert "➡ Próximo: l90.double" in capsys.readouterr().out
    assert LearnerState(course=in_the_lab).passed("l90.greet")   # the terminal's progress is the kernel's
    assert cli.main(["solution", "--lessons-dir", str(COURSE), "l90.greet"]) == 0


def test_a_missing_module_is_not_an_attempt(course_folders, monkeypatch, capsys):
    exercises = course_folders["exercises"]
    (exercises / "ex_greet.py").unlink()
    monkeypatch.chdir(exercises)
    verdict = check("l90.greet", course=FIXTURE_COURSE)
    assert verdict.missing_module and not verdict.passed
    assert "Não encontrei ex_greet.py" in capsys.readouterr().out
    assert LearnerState(course=FIXTURE_COURSE).status("l90.greet") == "not-started"


def test_a_course_build_records_nothing(course_folders, monkeypatch):
    monkeypatch.chdir(course_folders["exercises"])
    monkeypatch.setenv("CELERYLAB_CHECK_HIDDEN", "1")
    assert check("l90.greet", course=FIXTURE_COURSE).passed
    assert LearnerState(course=FIXTURE_COURSE).status("l90.greet") == "not-started"
