"""Typed views of the `metadata.celerylab` blocks the build writes into notebooks and cells, tolerant of any shape."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Mapping

KEY = "celerylab"


def _block(node: Any) -> dict:
    """`node.metadata.celerylab` as a dict; {} for anything missing or of the wrong shape."""
    metadata = node.get("metadata") if isinstance(node, Mapping) else None
    block = metadata.get(KEY) if isinstance(metadata, Mapping) else None
    return dict(block) if isinstance(block, Mapping) else {}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


@dataclass(frozen=True)
class NotebookMeta:
    """Which lesson, language and variant a generated notebook is, its source digest, and whether it ran."""

    lesson: str | None = None
    lang: str | None = None
    variant: str | None = None
    source_digest: str | None = None
    executed: bool = False

    @classmethod
    def of(cls, notebook: Any) -> "NotebookMeta":
        block = _block(notebook)
        return cls(*(_text(block.get(name)) for name in ("lesson", "lang", "variant", "source_digest")),
                   executed=block.get("executed") is True)

    @classmethod
    def read(cls, path: str | Path) -> "NotebookMeta":
        """The metadata of a notebook file; empty when the file cannot be read as JSON."""
        try:
            return cls.of(json.loads(Path(path).read_text(encoding="utf-8")))
        except (OSError, ValueError, UnicodeDecodeError):
            return cls()

    def identity(self) -> dict:
        """What makes two generated notebooks the same build (everything but `executed`)."""
        return {k: v for k, v in asdict(self).items() if k != "executed" and v is not None}


@dataclass(frozen=True)
class CellMeta:
    """A cell's source id, the exercise it answers or checks, and the one language it exists in, if any."""

    id: str | None = None
    exercise: str | None = None
    check: str | None = None
    lang: str | None = None

    @classmethod
    def of(cls, cell: Any) -> "CellMeta":
        block = _block(cell)
        return cls(*(_text(block.get(name)) for name in ("id", "exercise", "check", "lang")))
