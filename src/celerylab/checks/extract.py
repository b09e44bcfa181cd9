"""The modules an exercise notebook writes with %%writefile, extracted without running the notebook."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import nbformat

from celerylab.notebook_meta import CellMeta

WRITEFILE = re.compile(r"\A\s*%%writefile[ \t]+([^\n]*)\n?")


def writefile_target(source: str) -> tuple[str, str, bool] | None:
    """(file name, body, append?) of a ``%%writefile`` cell, or None for other cells."""
    match = WRITEFILE.match(source)
    if not match:
        return None
    words = shlex.split(match.group(1))
    append = "-a" in words or "--append" in words
    names = [word for word in words if not word.startswith("-")]
    return (names[0], source[match.end():], append) if names else None


def extract_modules(notebook: nbformat.NotebookNode, folder: str | Path) -> list[str]:
    """Write the exercise cells' %%writefile files into `folder`; returns the file names written.

    Cells marked as exercise answers are used when the notebook has any; otherwise every
    %%writefile cell. Targets outside `folder` are ignored.
    """
    folder = Path(folder).resolve()
    cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    marked = [cell for cell in cells if CellMeta.of(cell).exercise]
    written: list[str] = []
    for cell in marked or cells:
        target = writefile_target(cell.source)
        if target is None:
            continue
        name, body, append = target
        path = (folder / name).resolve()
        if folder not in path.parents:
            continue
        with path.open("a" if append else "w", encoding="utf-8") as stream:
            stream.write(body if body.endswith("\n") or not body else body + "\n")
        written.append(name)
    return written
