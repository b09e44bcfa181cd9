"""An exercise's answer-cell stub, generated afresh from the lesson source, and whether a cell still holds it."""
from __future__ import annotations

from celerylab.course import Exercise
from celerylab.notebook_meta import CellMeta


def answer_cells(notebook, info: Exercise) -> list:
    """The code cells of `notebook` that hold `info`'s answer."""
    return [cell for cell in notebook.cells
            if cell.cell_type == "code" and CellMeta.of(cell).exercise in (info.name, info.id)]


_STUBS: dict[tuple, str | None] = {}


def stub_cell(info: Exercise, lang: str) -> str | None:
    """The answer cell's stub in `lang`, as the exercises notebook is generated from the lesson source."""
    key = (info.id, str(info.root), lang, (info.root / info.lesson / "lesson.md").stat().st_mtime_ns)
    if key not in _STUBS:
        _STUBS[key] = _generated_stub(info, lang)
    return _STUBS[key]


def _generated_stub(info: Exercise, lang: str) -> str | None:
    from celerylab.compiler.model import Target
    from celerylab.compiler.plan import plan_lesson
    from celerylab.course import Lesson

    lesson = Lesson(info.lesson, info.root / info.lesson)
    notebook = plan_lesson(lesson, (lang,))[Target(lesson, lang, "exercises")]
    return next((cell.source for cell in answer_cells(notebook, info)), None)


def untouched(notebook, info: Exercise, lang: str) -> bool:
    """True when every answer cell of `info` in `notebook` still holds the stub: the exercise is not started."""
    cells = answer_cells(notebook, info)
    stub = stub_cell(info, lang)
    return bool(cells) and stub is not None and all(cell.source.strip() == stub.strip() for cell in cells)
