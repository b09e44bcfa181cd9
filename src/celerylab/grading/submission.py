"""One submitted notebook, read and validated: every problem becomes a Rejected with a readable reason."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import nbformat

from celerylab.i18n import normalize, t
from celerylab.notebook_meta import NotebookMeta

MAX_BYTES = 50 * 1024 * 1024


class Rejected(Exception):
    """A submission that cannot be graded; `reason(lang)` says why in the learner's language."""

    def __init__(self, key: str, **values):
        super().__init__(key)
        self.key, self.values = key, {k: str(v)[:300] for k, v in values.items()}

    def reason(self, lang: str | None = None) -> str:
        return t(self.key, lang=lang, **self.values)


@dataclass
class Submission:
    """A readable exercise notebook: its key in the gradebook, content digest, lesson and language."""

    path: Path
    key: str
    raw: bytes
    notebook: nbformat.NotebookNode
    lesson: str
    lang: str

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.raw).hexdigest()


def submission_key(path: Path, base: Path) -> str:
    try:
        relative = path.resolve().relative_to(base.resolve())
    except ValueError:
        relative = Path(path.name)
    return relative.with_suffix("").as_posix()


def parse(raw: bytes) -> dict:
    """The notebook's JSON, checked for the shape nbformat 4 needs and for unique cell ids."""
    if len(raw) > MAX_BYTES:
        raise Rejected("grading.reason.too_large", size=len(raw) // (1024 * 1024), limit=MAX_BYTES // (1024 * 1024))
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise Rejected("grading.reason.invalid_json", error=error) from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise Rejected("grading.reason.not_notebook")
    if data.get("nbformat") != 4:
        raise Rejected("grading.reason.nbformat", found=data.get("nbformat"))
    ids = [cell.get("id") for cell in data["cells"] if isinstance(cell, dict) and cell.get("id")]
    duplicates = sorted({cell_id for cell_id in ids if ids.count(cell_id) > 1})
    if duplicates:
        raise Rejected("grading.reason.duplicate_ids", ids=", ".join(map(str, duplicates)))
    return data


def load(path: str | Path, base: str | Path | None = None) -> Submission:
    """Read and validate one submission; raises Rejected for anything that cannot be graded."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise Rejected("grading.reason.unreadable", error=error) from None
    data = parse(raw)
    try:
        notebook = nbformat.reads(json.dumps(data), as_version=4)  # also joins multi-line sources
        nbformat.validate(notebook)
    except Exception as error:  # nbformat raises several types for malformed notebooks
        raise Rejected("grading.reason.invalid_notebook", error=str(error).splitlines()[0]) from None
    meta = NotebookMeta.of(notebook)
    if not meta.lesson:
        raise Rejected("grading.reason.no_lesson")
    if meta.variant != "exercises":
        raise Rejected("grading.reason.not_exercises", variant=meta.variant)
    key = submission_key(path, Path(base) if base else path.parent)
    return Submission(path, key, raw, notebook, meta.lesson, normalize(meta.lang))
