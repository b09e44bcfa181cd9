"""The course self-check: every exercise fails on the learner's version (here) and passes on the solution (the lesson notebook, under nbval)."""
from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from celerylab.course import Course, all_exercises
from celerylab.grading.engine import run_check
from celerylab.grading.extract import extract_modules
from celerylab.i18n import t

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("pt", "en")
EXERCISES = all_exercises()


def notebook_path(lesson: str, lang: str, variant: str) -> Path:
    folder = {"notebooks": "lesson"}.get(variant, variant)
    return Course.at_checkout(ROOT).notebook_path(lesson, lang, folder)


def cell_meta(cell) -> dict:
    return cell.metadata.get("celerylab", {})


def test_the_course_has_exercises():
    assert len(EXERCISES) >= 3


@pytest.mark.live
@pytest.mark.parametrize("exercise_id,lesson,lang",
                         [(e.id, e.lesson, lang) for e in EXERCISES for lang in LANGS])
def test_check_fails_on_the_unsolved_exercise(exercise_id, lesson, lang, tmp_path):
    notebook = nbformat.read(notebook_path(lesson, lang, "exercises"), as_version=4)
    assert extract_modules(notebook, tmp_path)
    verdict = run_check(exercise_id, tmp_path, include_hidden=True)
    assert verdict.passed is False, verdict.render("en")
    assert verdict.error is None, f"the stub must run and be judged, not crash: {verdict.error}"


@pytest.mark.parametrize("exercise_id,lesson,lang",
                         [(e.id, e.lesson, lang) for e in EXERCISES for lang in LANGS])
def test_the_lesson_notebook_runs_the_solved_exercise_and_its_check(exercise_id, lesson, lang):
    """nbval re-executes the lesson notebook, hidden criteria included: that run proves the solution passes."""
    notebook = nbformat.read(notebook_path(lesson, lang, "notebooks"), as_version=4)
    answers = [c for c in notebook.cells if cell_meta(c).get("exercise") == exercise_id]
    checks = [c for c in notebook.cells if cell_meta(c).get("check") == exercise_id]
    assert answers and checks, f"{exercise_id}: the lesson notebook must hold its solved answer and its check"
    assert "### BEGIN" not in answers[0].source
    printed = "".join(o.get("text", "") for c in checks for o in c.get("outputs", []))
    assert t("check.passed", lang=lang, exercise=exercise_id) in printed, (
        f"{exercise_id}: the committed check output (which nbval compares) must be a pass: {printed!r}")


@pytest.mark.parametrize("lesson", sorted({exercise.lesson for exercise in EXERCISES}))
def test_pt_and_en_have_the_same_exercises_checks_and_hints(lesson):
    def shape(lang: str, variant: str) -> list:
        notebook = nbformat.read(notebook_path(lesson, lang, variant), as_version=4)
        return [(cell.id, cell_meta(cell).get("exercise"), cell_meta(cell).get("check"))
                for cell in notebook.cells if not cell_meta(cell).get("lang")]

    for variant in ("exercises", "solutions"):
        assert shape("pt", variant) == shape("en", variant)
    for exercise in (e for e in EXERCISES if e.lesson == lesson):
        assert set(exercise.title) == {"pt", "en"}
        assert exercise.hints and all(set(hint) == {"pt", "en"} for hint in exercise.hints)


