"""The site's lesson page shows each solution collapsed: the lesson notebook's pointers take the solutions notebook's cells."""
from __future__ import annotations

import copy
import json
from pathlib import Path


def _meta(cell: dict) -> dict:
    return (cell.get("metadata") or {}).get("celerylab") or {}


def _names(exercise_id: str) -> set[str]:
    return {exercise_id, exercise_id.split(".", 1)[-1]}


def solved_cells(solutions: dict, exercise_id: str) -> list[dict]:
    """The exercise's answer and check cells, then the notes kept for the solved (marked as check cells: collapsed too)."""
    names, cells, inside = _names(exercise_id), [], False
    for cell in solutions.get("cells") or []:
        meta = _meta(cell)
        if meta.get("exercise") in names or meta.get("check") in names:
            inside = True
            cells.append(cell)
        elif inside and meta.get("solved_only"):
            note = copy.deepcopy(cell)
            note.setdefault("metadata", {}).setdefault("celerylab", {})["check"] = exercise_id
            cells.append(note)
        elif inside:
            inside = False
    return cells


def with_solutions(lesson: dict, solutions_path: Path) -> dict:
    """The lesson notebook with each pointer to the exercises notebook replaced by the solved cells, when there are any."""
    if not solutions_path.is_file():
        return lesson
    solutions = json.loads(solutions_path.read_text(encoding="utf-8"))
    merged = dict(lesson)
    merged["cells"] = []
    for cell in lesson.get("cells") or []:
        pointed = _meta(cell).get("points_to")
        merged["cells"] += (solved_cells(solutions, pointed) or [cell]) if pointed else [cell]
    return merged
