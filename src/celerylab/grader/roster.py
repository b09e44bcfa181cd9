"""The class roster: a CSV mapping submission files to learners (name, e-mail, LMS ids), and who submitted nothing."""
from __future__ import annotations

import csv
from pathlib import Path

from celerylab.i18n import TranslatedError

FIELDS = ("file", "learner", "email", "id", "sis_id", "login", "section", "submitted")


class RosterError(TranslatedError):
    """A roster that cannot be used; the message names the file and the problem."""


def read(path: str | Path) -> dict[str, dict]:
    """Rows by submission file (as listed, without ``.ipynb``); the header must name ``file`` and ``learner``."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise RosterError("grading.roster.unreadable", path=path, error=error) from None
    dialect = csv.Sniffer().sniff(text.splitlines()[0] if text else ",", delimiters=",;\t")
    rows = list(csv.DictReader(text.splitlines(), dialect=dialect))
    if not rows or not {"file", "learner"} <= set(rows[0]):
        raise RosterError("grading.roster.columns", path=path)
    roster = {}
    for row in rows:
        file = (row.get("file") or "").strip()
        if file:
            clean = {name: (row.get(name) or "").strip() for name in FIELDS}
            clean["file"] = submission_key(file)  # the row's key everywhere: gradebook, exports, matching
            roster[clean["file"]] = clean
    return roster


def submission_key(file: str) -> str:
    """A roster's `file` as the grader keys submissions: ``ana.ipynb`` and ``ana`` are the same learner."""
    return file[:-6] if file.endswith(".ipynb") else file


def match(roster: dict[str, dict], key: str) -> dict | None:
    """The roster row of a submission key (``alice/01_retries``), by its whole key or its first folder or file."""
    parts = key.split("/")
    for candidate in (key, parts[0], parts[-1]):
        if candidate in roster:
            return roster[candidate]
    return None
