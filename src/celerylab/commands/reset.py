"""`celerylab reset EXERCISE`: start one exercise over (progress and hints forgotten, the answer cell back to its stub)."""
from __future__ import annotations

import sys
from pathlib import Path

from celerylab.commands._common import add_exercise_command, command_course, exercise_or_none
from celerylab.i18n import get_lang, t


def register(subparsers) -> None:
    add_exercise_command(subparsers, "reset", "cmd.reset.help", run)


def restore_notebook(info, lang: str, course) -> Path | None:
    """Put the stub back in the learner's exercises notebook of `course`; the path changed, or None."""
    import nbformat

    from celerylab.checks.stubs import answer_cells, stub_cell

    path = course.notebook_path(info.lesson, lang, "exercises")
    stub = stub_cell(info, lang) if path.is_file() else None
    if stub is None:
        return None
    notebook = nbformat.read(str(path), as_version=4)
    cells = answer_cells(notebook, info)
    if not cells or all(cell.source == stub for cell in cells):
        return None
    for cell in cells:
        cell.source, cell.outputs, cell.execution_count = stub, [], None
    nbformat.write(notebook, str(path))
    return path


def run(args) -> int:
    from celerylab.checks.learner_state import LearnerState

    course = command_course(args)
    info = exercise_or_none(args.exercise, course)
    if info is None:
        return 2
    lang = get_lang()
    LearnerState(lang=lang, course=course).reset(info.id)
    print(t("cmd.reset.progress", exercise=info.id))
    try:
        path = restore_notebook(info, lang, course)
    except Exception as error:  # the progress is reset already; say why the cell is not
        print(t("cmd.reset.cell_failed", error=f"{type(error).__name__}: {error}"), file=sys.stderr)
        return 1
    if path is not None:
        print(t("cmd.reset.cell", path=path))
    module = course.notebook_path(info.lesson, lang, "exercises").parent / f"{info.module}.py"
    if module.is_file():  # what the answer cell wrote: the next check must not find the old answer
        module.unlink()
    return 0
