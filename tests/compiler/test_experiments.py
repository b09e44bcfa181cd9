"""Experiment cells: the built cell holds the experiment module's source, then the cell's own call."""
from __future__ import annotations

from pathlib import Path

import pytest

from celerylab.compiler import experiments
from celerylab.compiler.errors import SourceError
from celerylab.compiler.model import Lesson
from celerylab.compiler.plan import plan_lesson

FIXTURES = Path(__file__).parent / "fixtures" / "lessons"
LESSON = Lesson("l99_fixture", FIXTURES / "l99_fixture")


def cell(notebook, cell_id):
    return next(c for c in notebook.cells if c.id == cell_id)


def test_the_built_cell_is_the_module_then_the_call_in_both_languages():
    module = (LESSON.folder / "experiments" / "add_numbers.py").read_text(encoding="utf-8").strip()
    built = {(t.lang, t.variant): nb for t, nb in plan_lesson(LESSON).items()}
    for lang in ("pt", "en"):
        source = cell(built[lang, "lesson"], "add").source
        assert source == ("# experiments/add_numbers.py\n" + module + "\n\n\n"
                          'added = add_numbers(stack, 2, 3)\nprint("task id:", added.task_id)\nprint("sum:", added.total)')
        assert "#|" not in source
        compile(source, "cell", "exec")  # what the learner edits and runs is valid Python


def test_the_directive_names_one_or_more_modules():
    assert experiments.named("#| experiment: a, b_2\nrun()") == ["a", "b_2"]
    assert experiments.named("#|experiment:one") == ["one"]
    assert experiments.named("x = 1\n#| experiment: a") is None  # only the first line


def test_an_edited_experiment_is_what_the_cell_holds(tmp_path):
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "one.py").write_text("def one():\n    return 1\n", encoding="utf-8")
    expanded = experiments.expand(tmp_path, "#| experiment: one\nprint(one())\n")
    namespace: dict = {}
    exec(compile(expanded, "cell", "exec"), namespace)  # noqa: S102 - the cell's code, as the kernel runs it
    assert namespace["one"]() == 1
    (tmp_path / "experiments" / "one.py").write_text("def one():\n    return 2\n", encoding="utf-8")
    assert "return 2" in experiments.expand(tmp_path, "#| experiment: one\nprint(one())\n")


def test_a_missing_module_stops_the_build_at_the_cell(tmp_path):
    folder = tmp_path / "l98_broken"
    folder.mkdir()
    (folder / "lesson.md").write_text('+++ {"id": "run"}\n```python\n#| experiment: absent\nprint(1)\n```\n',
                                      encoding="utf-8")
    with pytest.raises(SourceError) as error:
        plan_lesson(Lesson("l98_broken", folder), ("en",))
    assert error.value.line == 1 and error.value.problem_key == "build.err.no_experiment"
