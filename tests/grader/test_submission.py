"""Every kind of unreadable submission is rejected with its own reason."""
from __future__ import annotations

import json

import nbformat
import pytest
from grading_files import write_notebook, write_raw

import notebooks
from celerylab.grader.intake import load
from celerylab.grader.submission import Rejected


def rejection(path) -> str:
    with pytest.raises(Rejected) as caught:
        load(path)
    return caught.value.key


def test_a_valid_exercise_notebook_loads(tmp_path):
    path = write_notebook(tmp_path / "ana.ipynb", notebooks.build("en", "exercises"))
    submission = load(path)
    assert (submission.lesson, submission.lang, submission.key) == ("l90_fixture", "en", "ana")
    assert isinstance(submission.notebook.cells[0].source, str)


def test_rejections(tmp_path):
    good = json.loads(nbformat.writes(notebooks.build("pt", "exercises")))
    assert rejection(write_raw(tmp_path / "a.ipynb", "{ nope")) == "grading.reason.invalid_json"
    assert rejection(write_raw(tmp_path / "b.ipynb", {"nbformat": 3, "cells": []})) == "grading.reason.nbformat"
    assert rejection(write_raw(tmp_path / "c.ipynb", [1, 2])) == "grading.reason.not_notebook"
    twin = {**good, "cells": good["cells"] + [dict(good["cells"][0])]}
    assert rejection(write_raw(tmp_path / "d.ipynb", twin)) == "grading.reason.duplicate_ids"
    lesson = {**good, "metadata": {**good["metadata"], "celerylab": {"lesson": "l90_fixture", "variant": "lesson"}}}
    assert rejection(write_raw(tmp_path / "e.ipynb", lesson)) == "grading.reason.not_exercises"
    anonymous = {**good, "metadata": {}}
    assert rejection(write_raw(tmp_path / "f.ipynb", anonymous)) == "grading.reason.no_lesson"
    broken = {**good, "cells": [{"cell_type": "code", "id": "x"}]}
    assert rejection(write_raw(tmp_path / "g.ipynb", broken)) == "grading.reason.invalid_notebook"


def test_the_reference_solution_notebook_is_an_answer_to_grade(tmp_path):
    """An instructor's first sanity check: the solutions notebook as generated, outputs and all."""
    solutions = notebooks.build("en", "solutions")
    submission = load(write_raw(tmp_path / "reference.ipynb", nbformat.writes(solutions)))
    assert (submission.lesson, submission.lang) == ("l90_fixture", "en")
