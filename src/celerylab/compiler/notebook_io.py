"""Reading and writing notebooks byte-stably, so unchanged builds leave files untouched."""
from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat import NotebookNode


def dumps(notebook: NotebookNode) -> str:
    text = nbformat.writes(notebook)
    return text if text.endswith("\n") else text + "\n"


def write(notebook: NotebookNode, path: Path) -> bool:
    """Write `notebook` to `path` unless the file already holds exactly that; True if it was written."""
    text = dumps(notebook)
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return True


def read(path: Path) -> NotebookNode:
    return nbformat.read(path, as_version=4)
