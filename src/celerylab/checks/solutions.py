"""The solved answer cell of an exercise and its notes for after a pass, read from the generated solutions notebook."""
from __future__ import annotations

from pathlib import Path

import nbformat

from celerylab.course import Exercise
from celerylab.checks.locate import course_notebook
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


def notes_from_notebook(notebook_path: Path, info: Exercise) -> list[str]:
    """The markdown cells shown only once solved (``part: solutions``) that follow the exercise's check cell."""
    notebook = nbformat.read(str(notebook_path), as_version=4)
    notes, after_check = [], False
    for cell in notebook.cells:
        meta = CellMeta.of(cell)
        if meta.check in (info.name, info.id):
            after_check = True
        elif meta.exercise or meta.check:
            after_check = False
        elif after_check and cell.cell_type == "markdown" and cell.metadata.get("celerylab", {}).get("solved_only"):
            notes.append(cell.source)
    return notes


def after_notes(info: Exercise, lang: str, solutions_dir: str | Path | None = None) -> list[str]:
    """What the solutions notebook says right after this exercise's check, for a learner who just passed it."""
    notebook = course_notebook(info.lesson, lang, "solutions", solutions_dir, info.root)
    return notes_from_notebook(notebook, info) if notebook is not None else []
