"""One learner's notebook as found on the hub, and the submissions folder it is written to (nbgrader's layout)."""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from celerylab.atomic import write_bytes, write_text
from celerylab.grader import nbgrader_layout
from celerylab.grader.roster import FIELDS
from celerylab.i18n import t

# what `celerylab build` names an exercises notebook (pt: _exercicios): 01_retries_exercises.ipynb -> 01_retries
EXERCISES = re.compile(r"^(?P<assignment>\d\d_[a-z0-9_]+?)_(exercises|exercicios)\.ipynb$")
SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$")


@dataclass(frozen=True)
class Notebook:
    """An exercises notebook of one learner: its bytes and when it was last saved."""

    name: str
    raw: bytes
    modified: datetime
    lang: str = ""

    @property
    def assignment(self) -> str:
        found = EXERCISES.match(self.name)
        assert found, self.name
        return found["assignment"]


@dataclass
class Learner:
    """A learner of the hub: their name there, their full name when known, and the notebooks found."""

    name: str
    full_name: str = ""
    notebooks: list[Notebook] = field(default_factory=list)
    problem: str = ""  # why nothing could be read (translated), when so

    def newest(self) -> list[Notebook]:
        """One notebook per assignment: the last saved (a learner who worked in both languages handed in one)."""
        kept: dict[str, Notebook] = {}
        for each in self.notebooks:
            if each.assignment not in kept or each.modified > kept[each.assignment].modified:
                kept[each.assignment] = each
        return [kept[name] for name in sorted(kept)]


def is_exercises(name: str) -> bool:
    return EXERCISES.match(name) is not None


def code_sources(raw: bytes | str) -> list[str] | None:
    """The code cells' sources of a notebook (the contents API joins lines, a file keeps them), None if unreadable."""
    import nbformat

    try:
        return [cell.source for cell in nbformat.reads(raw, as_version=4).cells if cell.cell_type == "code"]
    except Exception:  # a learner's notebook that is no notebook: the grader says why
        return None


def untouched(notebook: Notebook, exercises: Path) -> bool:
    """Whether `notebook` is still the course's own (`exercises/<lang>/<name>`: the same code): nothing to grade."""
    original = exercises / notebook.lang / notebook.name
    try:
        mine, theirs = code_sources(notebook.raw), code_sources(original.read_bytes())
    except OSError:
        return False
    return mine is not None and mine == theirs


def drop_untouched(learners: list[Learner], exercises: Path) -> int:
    """Leave out every notebook the learner never changed; how many were left out."""
    dropped = 0
    for learner in learners:
        kept = [each for each in learner.notebooks if not untouched(each, exercises)]
        dropped += len(learner.notebooks) - len(kept)
        learner.notebooks = kept
    return dropped


def write(learners: list[Learner], out: Path) -> int:
    """Each learner's notebooks as `out/<learner>/<assignment>/<notebook>` beside nbgrader's `timestamp.txt`, and
    `out/roster.csv` naming every learner (those who handed in nothing too); the number of notebooks written. A
    name that cannot be a folder name is skipped with its problem set."""
    written = 0
    for learner in learners:
        if not SAFE_NAME.match(learner.name):  # no folder of its own can hold it (``..``, ``a/b``): named, not written
            learner.problem, learner.notebooks = t("hub.collect.bad_name"), []
            continue
        for notebook in learner.newest():
            folder = out / learner.name / notebook.assignment
            folder.mkdir(parents=True, exist_ok=True)
            write_bytes(folder / notebook.name, notebook.raw)
            nbgrader_layout.write(folder, notebook.modified)
            written += 1
    write_text(out / "roster.csv", roster(learners))
    return written


def roster(learners: list[Learner]) -> str:
    """The roster `celerylab grade --roster` reads: one row per learner, keyed by their folder."""
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    for learner in sorted(learners, key=lambda each: each.name):
        if SAFE_NAME.match(learner.name):
            writer.writerow({"file": learner.name, "learner": learner.full_name or learner.name, "login": learner.name})
    return text.getvalue()
