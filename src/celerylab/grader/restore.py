"""Putting the canonical check cells back into a submission, by id, at their canonical places."""
from __future__ import annotations

import copy

import nbformat

from celerylab.notebook_meta import CellMeta


def check_of(cell) -> str | None:
    return CellMeta.of(cell).check


def restore_checks(submitted: nbformat.NotebookNode, canonical: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of `submitted` whose check cells are exactly the canonical ones.

    Every cell claiming to be a check, or reusing a canonical check's id, is dropped;
    each canonical check cell is inserted after the cell that precedes it in the
    canonical notebook (when the learner kept that cell), else after the previous
    check put back, else at the end. The learner's own cells are kept as they are.
    """
    notebook = copy.deepcopy(submitted)
    check_ids = {cell.get("id") for cell in canonical.cells if check_of(cell)}
    cells = [cell for cell in notebook.cells if not check_of(cell) and cell.get("id") not in check_ids]
    previous_id = None
    placed_after: str | None = None
    for cell in canonical.cells:
        if not check_of(cell):
            previous_id = cell.get("id")
            continue
        restored = copy.deepcopy(cell)
        restored.outputs = []
        restored.execution_count = None
        ids = [kept.get("id") for kept in cells]
        anchor = previous_id if previous_id in ids else placed_after
        position = ids.index(anchor) + 1 if anchor in ids else len(cells)
        cells.insert(position, restored)
        placed_after = previous_id = restored.get("id")
    notebook.cells = cells
    return notebook


def clear_outputs(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The learner's saved outputs play no part in grading."""
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return notebook
