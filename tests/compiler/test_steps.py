"""Generation: 3 variants x 2 languages, stable ids, lang-only cells, stubs for learners, metadata."""
from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from celerylab.compiler.model import Lesson, Target
from celerylab.compiler.plan import plan_lesson
from celerylab.compiler.steps import STEPS

FIXTURES = Path(__file__).parent / "fixtures" / "lessons"
LESSON = Lesson("l99_fixture", FIXTURES / "l99_fixture")


@pytest.fixture(scope="module")
def plan():
    return {(t.lang, t.variant): nb for t, nb in plan_lesson(LESSON).items()}


def ids(notebook):
    return [cell.id for cell in notebook.cells]


def source(notebook, cell_id):
    return next(cell.source for cell in notebook.cells if cell.id == cell_id)


def planned_with(monkeypatch, steps) -> dict:
    """The fixture lesson's six notebooks (as JSON) generated with `steps` instead of the generator's own."""
    import celerylab.compiler.steps as generator

    monkeypatch.setattr(generator, "STEPS", list(steps))
    return {(t.lang, t.variant): nbformat.writes(nb) for t, nb in plan_lesson(LESSON).items()}


def test_every_step_counts_and_so_does_their_order(monkeypatch):
    """Leaving any step out changes a notebook; answers become pointers before the lesson drops its parts."""
    whole = planned_with(monkeypatch, STEPS)
    for step in STEPS:
        assert planned_with(monkeypatch, [other for other in STEPS if other is not step]) != whole, step.__name__
    names = [step.__name__ for step in STEPS]
    assert names.index("pick_language") == 0
    swapped = list(STEPS)
    pointers, parts = names.index("point_to_exercises"), names.index("keep_variant_cells")
    swapped[pointers], swapped[parts] = swapped[parts], swapped[pointers]
    assert planned_with(monkeypatch, swapped)["en", "lesson"] != whole["en", "lesson"]


def test_six_notebooks_with_the_right_cells(plan):
    assert sorted(plan) == sorted((lang, v) for lang in ("pt", "en") for v in ("lesson", "exercises", "solutions"))
    lesson_ids = ["title", "start-stack", "add", "oops", "quiet", "ex-double-pointer", "stop-stack"]
    assert ids(plan["en", "lesson"]) == lesson_ids
    assert ids(plan["pt", "lesson"]) == lesson_ids[:5] + ["recap-en"] + lesson_ids[5:]
    for lang in ("pt", "en"):
        assert ids(plan[lang, "exercises"]) == ["title", "start-stack", "ex-double", "check-double", "stop-stack"]
        assert ids(plan[lang, "solutions"]) == ["title", "start-stack", "ex-double", "check-double", "double-after",
                                                "stop-stack"]


def test_stubs_for_learners_solutions_only_in_the_solutions(plan):
    for lang in ("pt", "en"):
        stub = source(plan[lang, "exercises"], "ex-double")
        assert "return x" in stub and "2 * x" not in stub and "###" not in stub
        solved = source(plan[lang, "solutions"], "ex-double")
        assert "return 2 * x" in solved and "return x\n" not in solved + "\n" and "###" not in solved


def test_the_lesson_points_to_the_exercises_notebook_instead_of_holding_the_answer(plan):
    for lang, name in (("pt", "99_fixture_exercicios.ipynb"), ("en", "99_fixture_exercises.ipynb")):
        notebook = plan[lang, "lesson"]
        assert not [cell.id for cell in notebook.cells if "2 * x" in cell.source or "ex_double" in cell.source]
        pointer = next(cell for cell in notebook.cells if cell.id == "ex-double-pointer")
        assert pointer.cell_type == "markdown" and f"exercises/{lang}/{name}" in pointer.source
        assert pointer.metadata.celerylab == {"id": "ex-double-pointer", "points_to": "l99.double"}


def test_language_texts_and_metadata(plan):
    assert source(plan["pt", "lesson"], "title").startswith("# Lição de teste")
    assert source(plan["en", "solutions"], "start-stack").endswith("# starts a real worker")
    notebook = plan["pt", "solutions"]
    assert (notebook.nbformat, notebook.nbformat_minor) == (4, 5)
    nbformat.validate(notebook)
    meta = notebook.metadata.celerylab
    assert (meta.lesson, meta.lang, meta.variant, meta.executed) == ("l99_fixture", "pt", "solutions", False)
    assert len(meta.source_digest) == 64 and "executed" not in plan["pt", "exercises"].metadata.celerylab
    cells = {cell.id: cell for cell in notebook.cells}
    assert cells["ex-double"].metadata.celerylab == {"id": "ex-double", "exercise": "double"}
    assert cells["check-double"].metadata.celerylab == {"id": "check-double", "check": "double"}
    assert cells["double-after"].metadata.celerylab == {"id": "double-after", "solved_only": True}
    assert plan["pt", "lesson"].cells[3].metadata.tags == ["raises-exception"]
    assert all(not cell.get("outputs") for nb in plan.values() for cell in nb.cells)


def test_target_paths():
    target = Target(LESSON, "en", "exercises")
    assert target.path(Path("/course")) == Path("/course/exercises/en/99_fixture_exercises.ipynb")
    assert target.label() == "exercises/en/99_fixture_exercises.ipynb" and not target.executed


def test_links_to_a_lesson_notebook_lead_to_notebooks_lang_from_the_exercises_and_solutions(plan):
    """The lesson notebooks sit side by side; the exercises and solutions notebooks are two folders away."""
    assert "](02_workers.ipynb#secao)" in source(plan[("pt", "lesson")], "title")
    for variant in ("exercises", "solutions"):
        assert "](../../notebooks/pt/02_workers.ipynb#secao)" in source(plan[("pt", variant)], "title")
        assert "](../../notebooks/en/02_workers.ipynb#section)" in source(plan[("en", variant)], "title")
