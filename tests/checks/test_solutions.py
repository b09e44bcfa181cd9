"""After a pass, the notes the solutions notebook keeps for the solved (part: solutions) come with the ✅."""
from __future__ import annotations

from pathlib import Path

import nbformat
from grading_files import FIXTURE_COURSE

from celerylab.checks import learner
from celerylab.checks.solutions import notes_from_notebook
from celerylab.compiler.model import Lesson
from celerylab.compiler.plan import plan_lesson
from celerylab.course import Exercise

FIXTURE = Lesson("l99_fixture", Path(__file__).parents[1] / "compiler" / "fixtures" / "lessons" / "l99_fixture")
SOLVED = 'def greet(name, lang):\n    return f"Olá, {name}!" if lang == "pt" else f"Hello, {name}!"\n'
DOUBLE = Exercise("l99.double", "l99_fixture", "double", 1, "ex_double")
GREET = FIXTURE_COURSE.find_exercise("l90.greet")


def written(tmp_path: Path, lang: str, variant: str) -> Path:
    notebook = next(nb for target, nb in plan_lesson(FIXTURE).items()
                    if (target.lang, target.variant) == (lang, variant))
    path = tmp_path / f"{lang}-{variant}.ipynb"
    nbformat.write(notebook, str(path))
    return path


def test_the_solutions_notebook_keeps_the_note_under_its_check(tmp_path):
    assert notes_from_notebook(written(tmp_path, "pt", "solutions"), DOUBLE) == ["Dobrar é somar o número a si mesmo."]
    assert notes_from_notebook(written(tmp_path, "en", "solutions"), DOUBLE) == ["Doubling is adding the number to itself."]
    assert notes_from_notebook(written(tmp_path, "en", "exercises"), DOUBLE) == []


def test_a_counted_pass_prints_the_note_and_a_failure_does_not(monkeypatch, tmp_path):
    monkeypatch.setattr(learner, "after_notes", lambda info, lang, course: ["NOTE AFTER SOLVING"])
    (tmp_path / "ex_greet.py").write_text("def greet(name, lang):\n    return name\n")
    verdict, text = learner.check_and_record(GREET, tmp_path, lang="en", course=FIXTURE_COURSE)
    assert not verdict.passed and "NOTE AFTER SOLVING" not in text
    (tmp_path / "ex_greet.py").write_text(SOLVED)
    verdict, text = learner.check_and_record(GREET, tmp_path, lang="en", course=FIXTURE_COURSE)
    assert verdict.passed and "NOTE AFTER SOLVING" in text
    verdict, text = learner.check_and_record(GREET, tmp_path, lang="en", course=FIXTURE_COURSE, counted=False)
    assert verdict.passed and "NOTE AFTER SOLVING" not in text  # the lesson's own run, a course build
