"""A lesson's sections by cell id: the heading each cell sits under, per language, and the anchor the site gives it."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from celerylab.compiler.errors import SourceError
from celerylab.compiler.model import LANGS, SourceCell
from celerylab.compiler.parser import parse

SECTION_HEADING = re.compile(r"^#{2,3} (.+)$", re.M)  # the sections a page links to (## and ###)


def headings(cells: list[SourceCell]) -> dict[str, dict[str, str]]:
    """{cell id: {lang: heading of the section holding the cell}}: the cell's own first `##`/`###` heading, else
    the last one before it in that language ("" before the first: the page itself)."""
    found: dict[str, dict[str, str]] = {cell.id: {} for cell in cells}
    for lang in LANGS:
        current = ""
        for cell in cells:
            own = SECTION_HEADING.findall(cell.texts[lang]) if cell.kind == "markdown" and lang in cell.texts else []
            found[cell.id][lang] = own[0] if own else current
            current = own[-1] if own else current
    return found


@lru_cache(maxsize=64)
def _parsed(text: str) -> tuple[SourceCell, ...]:
    return tuple(parse(text))


def source_cells(source: Path) -> tuple[SourceCell, ...]:
    """The cells of the lesson source at `source` (() when it is missing or does not parse: `celerylab dev check`
    reports that with its line)."""
    try:
        return _parsed(source.read_text(encoding="utf-8")) if source.is_file() else ()
    except SourceError:
        return ()


def section_heading(source: Path, cell_id: str, lang: str) -> str:
    """The heading, in `lang`, of the section of `source` holding cell `cell_id` ("" for the page itself or an
    unknown cell)."""
    return headings(list(source_cells(source))).get(cell_id, {}).get(lang, "")


def anchor(heading: str) -> str:
    """The id mkdocs' toc gives `heading` (the site builds its pages with it); "" without markdown."""
    try:
        import markdown
    except ImportError:  # pragma: no cover - markdown ships with mkdocs, a course dependency
        return ""
    converter = markdown.Markdown(extensions=["toc"])
    converter.convert(f"## {heading}\n")
    return converter.toc_tokens[0]["id"] if converter.toc_tokens else ""


def section_anchor(source: Path, cell_id: str, lang: str) -> str:
    """`#id` of the section holding `cell_id` on the page of `source` in `lang`; "" for the page itself, an unknown
    cell, or an install without markdown (the page, never a dead or bare anchor)."""
    heading = section_heading(source, cell_id, lang)
    found = anchor(heading) if heading else ""
    return f"#{found}" if found else ""


def declared_rules(source: Path) -> tuple[dict[str, str], dict[str, str]]:
    """({rule id: cell id} the lesson teaches, {rule id: cell id} it shows again), from its cells' `audit` and
    `audit_again` keys."""
    first: dict[str, str] = {}
    again: dict[str, str] = {}
    for cell in source_cells(source):
        first.update({rule: cell.id for rule in cell.audit if rule not in first})
        again.update({rule: cell.id for rule in cell.audit_again if rule not in again})
    return first, again
