"""The course self-check: every exercise fails on the learner's version and passes on the solution, in both languages."""
from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from celerylab.course import all_exercises
from celerylab.grading.engine import run_check
from celerylab.grading.extract import extract_modules

pytestmark = pytest.mark.live  # starts processes

ROOT = Path(__file__).resolve().parents[2]
CASES = [(exercise.id, exercise.lesson, lang, variant)
         for exercise in all_exercises() for lang in ("pt", "en") for variant in ("exercises", "solutions")]


def notebook_path(lesson: str, lang: str, variant: str) -> Path:
    return ROOT / variant / lang / f"{lesson[1:]}.ipynb"


def test_the_course_has_exercises():
    assert len(CASES) >= 12


@pytest.mark.parametrize("exercise_id,lesson,lang,variant", CASES)
def test_check_fails_unsolved_and_passes_solved(exercise_id, lesson, lang, variant, tmp_path):
    notebook = nbformat.read(notebook_path(lesson, lang, variant), as_version=4)
    assert extract_modules(notebook, tmp_path)
    verdict = run_check(exercise_id, tmp_path, include_hidden=True)
    should_pass = variant == "solutions"
    assert verdict.passed is should_pass, verdict.render("en")
    if not should_pass:
        assert verdict.error is None, f"the stub must run and be judged, not crash: {verdict.error}"


@pytest.mark.parametrize("lesson", sorted({exercise.lesson for exercise in all_exercises()}))
def test_pt_and_en_have_the_same_exercises_checks_and_hints(lesson):
    def shape(lang: str, variant: str) -> list:
        notebook = nbformat.read(notebook_path(lesson, lang, variant), as_version=4)
        return [(cell.id, cell.metadata.get("celerylab", {}).get("exercise"),
                 cell.metadata.get("celerylab", {}).get("check"))
                for cell in notebook.cells if not cell.metadata.get("celerylab", {}).get("lang")]

    for variant in ("exercises", "solutions"):
        assert shape("pt", variant) == shape("en", variant)
    for exercise in (e for e in all_exercises() if e.lesson == lesson):
        assert set(exercise.title) == {"pt", "en"}
        assert exercise.hints and all(set(hint) == {"pt", "en"} for hint in exercise.hints)
