"""The site keeps each solution collapsed after its statement, taken from solutions/ (the lesson notebook has pointers)."""
from __future__ import annotations

import json
from pathlib import Path

from celerylab.sitegen.nb_markdown import notebook_to_page
from celerylab.sitegen.solved_cells import with_solutions

ROOT = Path(__file__).resolve().parents[2]
LESSON = ROOT / "notebooks" / "pt" / "05_beat.ipynb"
SOLUTIONS = ROOT / "solutions" / "pt" / "05_beat.ipynb"


def test_pointers_become_the_solved_cells_and_the_note_for_the_solved():
    merged = with_solutions(json.loads(LESSON.read_text(encoding="utf-8")), SOLUTIONS)
    metas = [cell["metadata"].get("celerylab", {}) for cell in merged["cells"]]
    assert not [meta for meta in metas if meta.get("points_to")]
    assert [meta["id"] for meta in metas if meta.get("exercise") or meta.get("check")] == [
        "ex1-answer", "ex1-check", "ex1-after", "ex2-answer", "ex2-check"]
    markdown = notebook_to_page(merged, "05_beat", "pt").markdown
    collapsed = markdown.index('??? success "Mostrar a solução"')
    assert markdown.index("### Exercício 1") < collapsed < markdown.index("    Um preço a conhecer")
    assert "\nUm preço a conhecer" not in markdown  # the note for the solved stays inside the collapsed block


def test_without_a_solutions_notebook_the_pointer_stays(tmp_path):
    lesson = json.loads(LESSON.read_text(encoding="utf-8"))
    assert with_solutions(lesson, tmp_path / "missing.ipynb") == lesson
