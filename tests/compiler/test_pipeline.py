"""A full build of the fixture lesson on a live stack: outputs, temp working folders, reruns skip fresh work."""
from __future__ import annotations

import json

import pytest

from celerylab.compiler import stale
from celerylab.compiler.pipeline import build

pytestmark = pytest.mark.live


def outputs(path, cell_id) -> str:
    cell = next(c for c in json.loads(path.read_text(encoding="utf-8"))["cells"] if c["id"] == cell_id)
    return "".join("".join(o.get("text", "")) + o.get("ename", "") for o in cell["outputs"])


def test_executed_notebooks_carry_live_outputs(built_course):
    root, _ = built_course
    for lang in ("pt", "en"):
        lesson = root / "notebooks" / lang / "99_fixture.ipynb"
        assert "sum: 5" in outputs(lesson, "add")
        assert outputs(lesson, "oops") == "ZeroDivisionError"
        assert outputs(lesson, "quiet") == ""  # a trailing `;` silences the result
        solutions = root / "solutions" / lang / "99_fixture.ipynb"
        assert "Writing ex_double.py" in outputs(solutions, "ex-double")  # the answer runs in the solutions only
        assert outputs(solutions, "check-double") == "double(4) = 8\n"
        meta = json.loads(lesson.read_text(encoding="utf-8"))["metadata"]
        assert meta["celerylab"]["executed"] is True and meta["language_info"] == {"name": "python"}
        name = {"pt": "99_fixture_exercicios.ipynb", "en": "99_fixture_exercises.ipynb"}[lang]
        exercise = json.loads((root / "exercises" / lang / name).read_text(encoding="utf-8"))
        assert "".join(exercise["cells"][0]["source"]).startswith({"pt": "# Exercícios · ", "en": "# Exercises · "}[lang])
        assert all(cell.get("outputs", []) == [] and cell.get("execution_count") is None
                   for cell in exercise["cells"])


def test_cells_wrote_their_modules_in_temp_folders(built_course):
    root, lessons = built_course
    assert not list(root.rglob("*.py")) and not list(lessons[0].folder.parent.rglob("ex_double.py"))


def test_fresh_build_passes_check_and_rebuild_skips_execution(built_course):
    root, lessons = built_course
    assert stale.check(lessons, root, whole_course=True) == []
    [report] = build(lessons, root)
    assert report.executed == [] and report.written == [] and len(report.fresh) == 6


def test_no_execute_build_keeps_fresh_executed_notebooks(built_course):
    root, lessons = built_course
    [report] = build(lessons, root, execute=False)
    assert report.written == [] and stale.check(lessons, root) == []
