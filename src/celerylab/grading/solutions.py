"""The solved answer cell of an exercise: from the generated solution notebook, else the lesson source."""
from __future__ import annotations

from pathlib import Path

import nbformat

from celerylab.course import Exercise
from celerylab.compiler.markers import keep_region
from celerylab.compiler.parser import parse_file
from celerylab.grading.locate import course_notebook


def from_notebook(notebook_path: Path, info: Exercise) -> str | None:
    notebook = nbformat.read(str(notebook_path), as_version=4)
    for cell in notebook.cells:
        meta = cell.get("metadata", {}).get("celerylab", {})
        if cell.cell_type == "code" and meta.get("exercise") in (info.name, info.id):
            return cell.source
    return None


def solution_code(info: Exercise, lang: str, solutions_dir: str | Path | None = None) -> str | None:
    """The solved cell of `info` in `lang`, or None when neither source has it."""
    notebook = course_notebook(info.lesson, lang, "solutions", solutions_dir, info.root)
    if notebook is not None:
        found = from_notebook(notebook, info)
        if found is not None:
            return found
    lesson_md = info.root / info.lesson / "lesson.md"
    return from_source(lesson_md, info, lang) if lesson_md.exists() else None


def from_source(lesson_md: Path, info: Exercise, lang: str) -> str | None:
    """The answer cell in lesson.md, solved, through the build's own parser."""
    for cell in parse_file(lesson_md):
        if cell.kind == "code" and cell.exercise in (info.name, info.id):
            return keep_region(cell.texts[lang], "SOLUTION")
    return None
