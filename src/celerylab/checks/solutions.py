"""The solved answer cell of an exercise and its notes for after a pass, read from the generated solutions notebook."""
from __future__ import annotations

from pathlib import Path

from celerylab.checks.locate import course_notebook
from celerylab.course import Course, Exercise
from celerylab.notebook_meta import CellMeta


def read(notebook_path: Path):
    """The notebook, read when needed: nbformat (and the jsonschema it loads) costs a check cell about 2 s
    of CPU at import, which a grading kernel, where check() defers to the grader, never needs."""
    import nbformat

    return nbformat.read(str(notebook_path), as_version=4)


def from_notebook(notebook_path: Path, info: Exercise) -> str | None:
    notebook = read(notebook_path)
    for cell in notebook.cells:
        if cell.cell_type == "code" and CellMeta.of(cell).exercise in (info.name, info.id):
            return cell.source
    return None


def solution_code(info: Exercise, lang: str, solutions_dir: str | Path | None = None, *,
                  course: Course) -> str | None:
    """The solved cell of `info` in `lang`, or None when no solutions notebook of `course` has it."""
    notebook = course_notebook(info.lesson, lang, "solutions", solutions_dir, course=course)
    return from_notebook(notebook, info) if notebook is not None else None


def notes_from_notebook(notebook_path: Path, info: Exercise) -> list[str]:
    """The markdown cells shown only once solved (``part: solutions``) that follow the exercise's check cell."""
    notebook = read(notebook_path)
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


def after_notes(info: Exercise, lang: str, solutions_dir: str | Path | None = None, *,
                course: Course) -> list[str]:
    """What the solutions notebook says right after this exercise's check, for a learner who just passed it."""
    notebook = course_notebook(info.lesson, lang, "solutions", solutions_dir, course=course)
    return notes_from_notebook(notebook, info) if notebook is not None else []
