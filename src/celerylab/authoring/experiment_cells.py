"""In every lesson, every measured cell shows the experiment that measures (no hidden reproduction)."""
from __future__ import annotations

from pathlib import Path

from celerylab.authoring.problems import Problem
from celerylab.compiler import experiments
from celerylab.compiler.model import SourceCell

LONGEST = 60  # lines of an experiment module: the Celery calls of one measurement, short enough to read in its cell


def measured(cell: SourceCell) -> bool:
    """A lesson-notebook code cell that does not say it measures nothing: with or without `needs` (a schedule asked of
    Celery on a stopped clock measures as much as a live stack), but not a one-language cell (it sets the page up)."""
    return (cell.kind == "code" and cell.measures and not (cell.exercise or cell.check or cell.lang)
            and cell.in_variant("lesson"))


def experiment_problems(folder: Path, cells: list[SourceCell]) -> list[Problem]:
    """Measured cells that are not experiment cells, directives naming no module, modules too long to read."""
    source, problems = folder / "lesson.md", []
    for cell in cells:
        texts = set(cell.texts.values()) if cell.kind == "code" else set()
        for text in texts:
            if experiments.missing(folder, text):
                problems.append(Problem(source, cell.line, "dev.p.no_experiment",
                                        {"cell": cell.id, "names": ", ".join(experiments.missing(folder, text))}))
        if measured(cell) and not any(experiments.named(text) for text in texts):
            problems.append(Problem(source, cell.line, "dev.p.not_experiment", {"cell": cell.id}))
    for module in sorted((folder / experiments.FOLDER).glob("*.py")):
        lines = len([line for line in module.read_text(encoding="utf-8").splitlines() if line.strip()])
        if module.name != "__init__.py" and lines > LONGEST:
            problems.append(Problem(module, None, "dev.p.long_experiment", {"lines": lines, "longest": LONGEST}))
    return problems
