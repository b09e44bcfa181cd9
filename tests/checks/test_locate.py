"""Where a terminal check finds the learner's answers: the current folder, else the exercises folder of the
learner's language (the lab's terminal opens at the course's root, not beside the answers)."""
from __future__ import annotations

from grading_files import COURSE

from celerylab import cli
from celerylab.checks.locate import answer_folder, answer_folders
from celerylab.course import Course


def checkout(tmp_path):
    """A course checkout outside the package: its lessons folder, and exercises/{pt,en} beside it."""
    for lang in ("pt", "en"):
        (tmp_path / "exercises" / lang).mkdir(parents=True)
    return Course.at(COURSE, output_root=tmp_path)


def test_from_the_course_root_the_answers_are_found_in_the_exercises_folder_of_the_language(tmp_path, monkeypatch):
    course = checkout(tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exercises" / "en" / "ex_greet.py").write_text("def greet(name, lang):\n    return name\n")
    assert answer_folder(["ex_greet.py"], "en", course=course) == tmp_path / "exercises" / "en"
    (tmp_path / "exercises" / "pt" / "ex_greet.py").write_text("def greet(name, lang):\n    return name\n")
    assert answer_folder(["ex_greet.py"], "pt", course=course) == tmp_path / "exercises" / "pt"


def test_the_current_folder_comes_first(tmp_path, monkeypatch):
    course = checkout(tmp_path)
    (tmp_path / "exercises" / "pt" / "ex_greet.py").write_text("x = 1\n")
    here = tmp_path / "mine"
    here.mkdir()
    (here / "ex_greet.py").write_text("x = 2\n")
    monkeypatch.chdir(here)
    assert answer_folder(["ex_greet.py"], "pt", course=course) == here
    assert answer_folders("pt", course=course)[0] == here


def test_no_answer_anywhere_says_where_it_looked_and_what_to_do_without_blaming_the_answer(tmp_path, monkeypatch,
                                                                                          capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["check", "--lessons-dir", str(COURSE), "l90.greet", "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert "There is no answer to check yet (ex_greet.py)" in err and str(tmp_path) in err
    assert "answer cell" in err and "--dir" in err
    assert cli.main(["check", "--lessons-dir", str(COURSE), "l90.greet", "--lang", "pt"]) == 1
    assert "Ainda não há resposta para verificar" in capsys.readouterr().err


def test_answers_found_in_the_english_exercises_count_as_english_progress(tmp_path, monkeypatch, capsys):
    """A terminal in Portuguese that finds the answer in exercises/en records the attempt in the English
    notebooks' progress (the one `progress --lang en` and the English notebooks show), not the Portuguese one."""
    from celerylab.checks.learner_state import LearnerState
    from celerylab.course import OUTPUT_ENV

    course = checkout(tmp_path)
    monkeypatch.setenv(OUTPUT_ENV, str(tmp_path))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exercises" / "en" / "ex_greet.py").write_text("def greet(name, lang):\n    return name\n")
    assert cli.main(["check", "--lessons-dir", str(COURSE), "l90.greet", "--lang", "pt"]) == 1
    capsys.readouterr()
    assert LearnerState(lang="en", course=course).exercises["l90.greet"]["attempts"] == 1
    assert "l90.greet" not in LearnerState(lang="pt", course=course).exercises
