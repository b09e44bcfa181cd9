"""Which dbm module a Beat's schedule file is written with: the first of this Python's that `shelve` finds."""
from __future__ import annotations

import dbm
import importlib
from pathlib import Path

#: The modules `dbm.open` tries for a new file, in its order (`dbm.sqlite3` exists from Python 3.13).
CANDIDATES = ("dbm.sqlite3", "dbm.gnu", "dbm.ndbm", "dbm.dumb")


def available() -> list[str]:
    """The dbm modules this Python can import (a module whose C library is missing is not available)."""
    found = []
    for name in CANDIDATES:
        try:
            importlib.import_module(name)
        except ImportError:
            continue
        found.append(name)
    return found


def written_with(path: Path) -> str | None:
    """The dbm module that wrote the schedule file at `path` (None: no such file)."""
    return dbm.whichdb(str(path)) or None
