"""`build --check`: is every generated notebook up to date? Decided without executing anything."""
from __future__ import annotations

from pathlib import Path

from nbformat import NotebookNode

from celerylab.compiler import notebook_io
from celerylab.compiler.model import FOLDERS, LANGS, VARIANTS, Lesson, Target
from celerylab.compiler.plan import plan_lesson
from celerylab.notebook_meta import NotebookMeta

RUNTIME_CELL_KEYS = {"execution", "collapsed", "scrolled"}


def structure(notebook: NotebookNode) -> list[tuple]:
    """What the source decides about each cell: type, id, source and metadata (outputs aside)."""
    return [(cell.cell_type, cell.get("id"), cell.source,
             {k: v for k, v in cell.metadata.items() if k not in RUNTIME_CELL_KEYS})
            for cell in notebook.cells]


def _identity(notebook: NotebookNode) -> dict:
    return NotebookMeta.of(notebook).identity()


def staleness(target: Target, expected: NotebookNode, root: Path, require_executed: bool) -> str | None:
    """None when fresh, else the catalog key of the reason. Exercises compare whole; executed ones by digest."""
    path = target.path(root)
    if not path.is_file():
        return "build.stale.missing"
    if not target.executed:
        fresh = path.read_text(encoding="utf-8") == notebook_io.dumps(expected)
        return None if fresh else "build.stale.content"
    try:
        found = notebook_io.read(path)
    except Exception:  # any unreadable file is simply stale
        return "build.stale.unreadable"
    if _identity(found) != _identity(expected):
        return "build.stale.digest"
    if structure(found) != structure(expected):
        return "build.stale.cells"
    if require_executed and not NotebookMeta.of(found).executed:
        return "build.stale.not_executed"
    return None


def orphans(lessons: list[Lesson], root: Path, langs: tuple[str, ...]) -> list[Path]:
    """Generated-looking notebooks that no lesson of the course produces any more."""
    expected = {Target(lesson, lang, variant).path(root)
                for lesson in lessons for lang in langs for variant in VARIANTS}
    folders = {root / FOLDERS[variant] / lang for lang in langs for variant in VARIANTS}
    return sorted(path for folder in folders if folder.is_dir()
                  for path in folder.glob("*.ipynb") if path not in expected)


def check(lessons: list[Lesson], root: Path, langs: tuple[str, ...] = LANGS, *,
          require_executed: bool = True, whole_course: bool = False) -> list[tuple[Path, str]]:
    """Every stale or orphan file as (path, reason key); an empty list means the build is fresh."""
    problems = []
    for lesson in lessons:
        for target, expected in plan_lesson(lesson, langs).items():
            reason = staleness(target, expected, root, require_executed)
            if reason:
                problems.append((target.path(root), reason))
    if whole_course:
        problems += [(path, "build.stale.orphan") for path in orphans(lessons, root, langs)]
    return problems
