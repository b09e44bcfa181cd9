"""Executing a submission under limits (grader.sandbox.execute): the notebook's time is one budget its cells share."""
from __future__ import annotations

import nbformat
import pytest

from celerylab.grader.sandbox.execute import execute

pytestmark = pytest.mark.live  # starts a kernel


def notebook(*sources: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in sources])


def test_the_cells_share_the_notebooks_time(tmp_path):
    """Three 3-second cells, each well within the cell limit, cannot all run in a 4-second notebook."""
    book = notebook("import time; time.sleep(3)", "time.sleep(3)", "print('third')")
    notes = execute(book, tmp_path, cell_timeout=60, notebook_timeout=4, output_limit=10_000)
    assert [note["kind"] for note in notes] == ["notebook_timeout"] and notes[0]["seconds"] == "4"
    assert book.cells[2].outputs == []  # the budget was spent: the last cell never ran


def test_a_notebook_within_its_time_runs_every_cell(tmp_path):
    book = notebook("x = 2", "print(x * 21)")
    assert execute(book, tmp_path, cell_timeout=60, notebook_timeout=120, output_limit=10_000) == []
    assert book.cells[1].outputs[0]["text"] == "42\n"
