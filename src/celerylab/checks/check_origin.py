"""Where a check runs from (exercises notebook, lesson, solutions, terminal): only a learner's own work counts."""
from __future__ import annotations

import os
from pathlib import Path

from celerylab.notebook_meta import NotebookMeta

SESSION_ENV = "JPY_SESSION_NAME"  # jupyter_server sets it in every kernel it starts: the notebook's path
NOT_COUNTED = ("lesson", "solutions")  # these run the solved exercises: their passes are not the learner's


def _ipython_notebook_file() -> str | None:
    """VS Code's notebook path (`__vsc_ipynb_file__` in the kernel's namespace), when there is one."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    value = shell.user_ns.get("__vsc_ipynb_file__") if shell is not None else None
    return value if isinstance(value, str) else None


def notebook_path() -> Path | None:
    """The notebook this kernel runs, as Jupyter (or VS Code) said when it started the kernel."""
    for text in (os.environ.get(SESSION_ENV), _ipython_notebook_file()):
        if not text:
            continue
        path = Path(text)
        candidates = [path] if path.is_absolute() else [
            Path(os.environ.get("CELERYLAB_ROOT") or os.getcwd()) / path, Path.cwd() / path.name]
        for candidate in candidates:
            if candidate.is_file():
                return candidate
    return None


def folder_variant(folder: str | Path) -> str | None:
    """The variant of the course notebooks in `folder`: "exercises" if any is, else the one found, else None."""
    variants = {NotebookMeta.read(path).variant for path in Path(folder).glob("*.ipynb")} - {None}
    if "exercises" in variants or not variants:
        return "exercises" if variants else None
    return sorted(variants)[0]


def notebook_variant(folder: str | Path = ".") -> str | None:
    """The variant of the running notebook (by its path), else of the course notebooks beside the module."""
    path = notebook_path()
    if path is not None:
        return NotebookMeta.read(path).variant
    return folder_variant(folder)


def counts(variant: str | None) -> bool:
    """True when a check from there belongs in the learner's progress (exercises, terminal, unknown)."""
    return variant not in NOT_COUNTED
