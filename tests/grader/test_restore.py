"""Canonical check cells come back by id, at their places; the learner's own cells stay."""
from __future__ import annotations

import nbformat

import notebooks
from celerylab.grader.restore import restore_checks


def ids(notebook) -> list[str]:
    return [cell.id for cell in notebook.cells]


def test_edited_deleted_reordered_and_forged_checks_change_nothing():
    canonical = notebooks.build("pt", "exercises")
    submitted = notebooks.build("pt", "exercises", {"double": "%%writefile ex_double.py\n# mine"})
    by_id = {cell.id: cell for cell in submitted.cells}
    by_id["check-double"].source = "print('✅ l90.double: passou.')"      # edited
    forged = nbformat.v4.new_code_cell("print('✅ passed')")
    forged.metadata["celerylab"] = {"check": "greet"}                     # a fake check cell
    mine = nbformat.v4.new_code_cell("x = 1")                             # the learner's own cell
    submitted.cells = [by_id["ex-greet"], mine, by_id["check-double"], by_id["ex-double"], forged]
    restored = restore_checks(submitted, canonical)
    assert ids(restored) == ["ex-greet", "check-greet", mine.id, "ex-double", "check-double"]
    sources = {cell.id: cell.source for cell in restored.cells}
    assert sources["check-double"] == 'from celerylab.checks import check\ncheck("l90.double")'
    assert sources["ex-double"] == "%%writefile ex_double.py\n# mine"
    assert restored.cells[2].source == "x = 1"
