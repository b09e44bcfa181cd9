"""The solved answer cell of an exercise, read from the generated solutions notebook (never from the lesson source)."""
from __future__ import annotations

from pathlib import Path

import nbformat

from celerylab.course import Exercise
from celerylab.grading.locate import course_notebook
from celerylab.notebook_meta import CellMeta


def from_notebook(notebook_path: Path, info: Exercise) -> str | None:
    notebook = nbformat.read(str(notebook_path), as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code" and CellMeta.of(cell).exercise in (info.name, info.id):
            return cell.source
    return None


def solution_code(info: Exercise, lang: str, solutions_dir: str | Path | None = None) -> str | None:
    """The solved cell of `info` in `lang`, or None when no solutions notebook has it."""
    notebook = course_notebook(info.lesson, lang, "solutions", solutions_dir, info.root)
    return from_notebook(notebook, info) if notebook is not None else None
