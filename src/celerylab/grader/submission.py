"""One submitted notebook, read and validated: every problem becomes a Rejected with a readable reason."""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import nbformat

from celerylab.grader.names import safe_name
from celerylab.i18n import normalize, t
from celerylab.notebook_meta import NotebookMeta

MAX_BYTES = 50 * 1024 * 1024
MAX_CELLS = 5000
MAX_DEPTH = 64


class Rejected(Exception):
    """A submission that cannot be graded; `reason(lang)` says why in the learner's language."""

    def __init__(self, key: str, about: tuple = (None, None), **values):
        super().__init__(key)
        self.key, self.values = key, {k: safe_name(str(v)[:300]) for k, v in values.items()}  # paths: escaped
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


MAX_NODES = 500_000  # values in one notebook's JSON (containers, strings, items): a course's has a few thousand
STRING_BODY = re.compile(rb'(?:[^"\\]++|\\.)*+', re.S)  # possessive: one pass, never backtracks
NOT_STRUCTURE = bytes(byte for byte in range(256) if byte not in b"[]{},")


def scan(raw: bytes, budget: int = MAX_NODES) -> tuple[int, int]:
    """How deeply a JSON text nests and how many values it holds (a lower bound, stopping past `budget`), in
    one linear pass over its brackets and commas outside strings, before any parser builds or recurses.

    Rejecting deep or huge documents here means json never raises RecursionError in the grader (which on
    CPython 3.11 can leave the thread unable to compile code) nor builds millions of objects (4 MiB of
    ``{}`` took the grader to 1.9 GB), and no regex backtracks over an unterminated string."""
    deepest = level = nodes = position = 0
    while position <= len(raw):
        quote = raw.find(b'"', position)
        end = len(raw) if quote < 0 else quote
        structure = raw[position:end].translate(None, NOT_STRUCTURE)
        nodes += len(structure) - structure.count(b"]") - structure.count(b"}")
        if nodes > budget:
            return deepest, nodes
        for byte in structure.translate(None, b","):  # at most budget openers, and closers past them end it
            level += 1 if byte in b"[{" else -1
            if level < 0:  # not JSON: the parser says so
                return deepest, nodes
            deepest = max(deepest, level)
        if quote < 0:
            return deepest, nodes
        body = STRING_BODY.match(raw, quote + 1)  # it always matches (possibly nothing)
        position = body.end() if body else quote + 1
        nodes += 1
        if position >= len(raw):  # an unterminated string: the parser says so
            return deepest, nodes
        position += 1
    return deepest, nodes


def text_depth(raw: bytes) -> int:
    """How deeply a JSON text nests, read from its brackets outside strings (see scan)."""
    return scan(raw, budget=len(raw) + 1)[0]


def parse(raw: bytes) -> dict:
    """The notebook's JSON, checked for the shape nbformat 4 needs and for unique cell ids, in linear time."""
    if len(raw) > MAX_BYTES:
        raise Rejected("grading.reason.too_large", size=len(raw) // (1024 * 1024), limit=MAX_BYTES // (1024 * 1024))
    deepest, nodes = scan(raw)
    if nodes > MAX_NODES:
        raise Rejected("grading.reason.too_many_nodes", limit=MAX_NODES)
    if deepest > MAX_DEPTH:
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
