"""One submitted notebook, read and validated: every problem becomes a Rejected with a readable reason."""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import nbformat

from celerylab.i18n import normalize, t
from celerylab.notebook_meta import NotebookMeta

MAX_BYTES = 50 * 1024 * 1024
MAX_CELLS = 5000
MAX_DEPTH = 64


class Rejected(Exception):
    """A submission that cannot be graded; `reason(lang)` says why in the learner's language."""

    def __init__(self, key: str, about: tuple = (None, None), **values):
        super().__init__(key)
        self.key, self.values = key, {k: str(v)[:300] for k, v in values.items()}
        self.lesson, self.lang = about  # lesson and language, when known: the entry lists the lesson's exercises

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


def depth(data, limit: int) -> int:
    """How deeply `data` nests (lists and dicts), counted without recursion and stopping past `limit`."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, (dict, list)):
            deepest = max(deepest, level)
            if deepest > limit:
                return deepest
            stack.extend((child, level + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
NOT_BRACKET = re.compile(rb"[^\[\]{}]")


def text_depth(raw: bytes) -> int:
    """How deeply a JSON text nests, read from its brackets outside strings, before any parser recurses.

    Rejecting deep documents here means json never raises RecursionError in the grader, which on
    CPython 3.11 can leave the thread unable to compile code afterwards (SystemError in the AST).
    """
    deepest = level = 0
    for bracket in NOT_BRACKET.sub(b"", JSON_STRING.sub(b"", raw)):
        level += 1 if bracket in b"[{" else -1
        deepest = max(deepest, level)
    return deepest


def parse(raw: bytes) -> dict:
    """The notebook's JSON, checked for the shape nbformat 4 needs and for unique cell ids, in linear time."""
    if len(raw) > MAX_BYTES:
        raise Rejected("grading.reason.too_large", size=len(raw) // (1024 * 1024), limit=MAX_BYTES // (1024 * 1024))
    if text_depth(raw) > MAX_DEPTH:
        raise Rejected("grading.reason.too_deep", limit=MAX_DEPTH)
    try:
        data = json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise Rejected("grading.reason.too_deep", limit=MAX_DEPTH) from None
    except (UnicodeDecodeError, ValueError) as error:
        raise Rejected("grading.reason.invalid_json", error=error) from None
    if isinstance(data, dict):
        meta = NotebookMeta.of(data)
        try:
            return shaped(data)
        except Rejected as rejection:  # the entry still lists the lesson's exercises, at zero
            rejection.lesson, rejection.lang = meta.lesson, normalize(meta.lang)
            raise
    raise Rejected("grading.reason.not_notebook")


def shaped(data: dict) -> dict:
    """The checks on a decoded JSON object: notebook shape, format version, size in cells, depth, unique ids."""
    if not isinstance(data.get("cells"), list):
        raise Rejected("grading.reason.not_notebook")
    if type(data.get("nbformat")) is not int or data["nbformat"] != 4:
        raise Rejected("grading.reason.nbformat", found=data.get("nbformat"))
    minor = data.get("nbformat_minor")
    if type(minor) is not int or not 0 <= minor <= 5:
        raise Rejected("grading.reason.nbformat_minor", found=minor)
    if len(data["cells"]) > MAX_CELLS:
        raise Rejected("grading.reason.too_many_cells", count=len(data["cells"]), limit=MAX_CELLS)
    if depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise Rejected("grading.reason.too_deep", limit=MAX_DEPTH)
    ids = Counter(cell["id"] for cell in data["cells"] if isinstance(cell, dict) and isinstance(cell.get("id"), str))
    duplicates = sorted(cell_id for cell_id, count in ids.items() if count > 1)
    if duplicates:
        raise Rejected("grading.reason.duplicate_ids", ids=", ".join(duplicates))
    return data


# The exercise notebook, and the reference solution notebook (the same cells with every answer filled in:
# an instructor's first sanity check). The lesson notebook runs the whole lesson: not an answer.
GRADABLE = ("exercises", "solutions")


def from_bytes(raw: bytes, path: Path, key: str) -> Submission:
    """Validate one submission's bytes; raises Rejected (knowing lesson and language when it can)."""
    data = parse(raw)
    meta = NotebookMeta.of(data)
    lesson, lang = meta.lesson, normalize(meta.lang)
    try:
        notebook = nbformat.reads(raw.decode("utf-8"), as_version=4)  # also joins multi-line sources
        nbformat.validate(notebook)
    except Exception as error:  # nbformat raises several types for malformed notebooks
        raise Rejected("grading.reason.invalid_notebook", about=(lesson, lang),
                       error=(str(error).splitlines() or [type(error).__name__])[0]) from None
    if not lesson:
        raise Rejected("grading.reason.no_lesson")
    if meta.variant not in GRADABLE:
        raise Rejected("grading.reason.not_exercises", about=(lesson, lang), variant=meta.variant)
    return Submission(Path(path), key, raw, notebook, lesson, lang)
