"""Experiment cells: a code cell whose first line is `#| experiment: name` shows the lesson's `experiments/name.py`."""
from __future__ import annotations

import re
from pathlib import Path

DIRECTIVE = re.compile(r"^#\|\s*experiment:\s*(?P<names>.*?)\s*$")
NAME = re.compile(r"^[a-z][a-z0-9_]*$")
FOLDER = "experiments"  # every lesson's package of experiments (`celerylab dev check` holds its cells to them)


def named(source: str) -> list[str] | None:
    """The experiments a code cell's first line names (None: not an experiment cell)."""
    first = source.lstrip("\n").split("\n", 1)[0]
    found = DIRECTIVE.match(first)
    return [name.strip() for name in found.group("names").split(",")] if found else None


def module_path(folder: Path, name: str) -> Path:
    return folder / FOLDER / f"{name}.py"


def missing(folder: Path, source: str) -> list[str]:
    """The names the directive gives that are not an experiment module of the lesson in `folder`."""
    return [name for name in named(source) or () if not NAME.match(name) or not module_path(folder, name).is_file()]


def expand(folder: Path, source: str) -> str:
    """The cell as the notebook holds it: each named module's source (under a comment naming its file), then the rest
    of the cell (the call and what it prints). The learner edits and re-runs that code: it is what measures."""
    names = named(source)
    if names is None:
        return source
    rest = source.lstrip("\n").split("\n", 1)[1] if "\n" in source.lstrip("\n") else ""
    parts = [f"# {FOLDER}/{name}.py\n{module_path(folder, name).read_text(encoding='utf-8').strip()}" for name in names]
    return "\n\n\n".join(parts) + "\n\n\n" + rest.strip("\n")
