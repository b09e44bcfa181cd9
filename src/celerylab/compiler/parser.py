"""lesson.md -> SourceCells: `+++ {json}` headers, language blocks, code fences, markers, all checked."""
from __future__ import annotations

import json
import re
from pathlib import Path

from celerylab import machine_needs
from celerylab.compiler import blocks, markers
from celerylab.compiler.errors import SourceError
from celerylab.compiler.model import LANGS, PARTS, SourceCell

HEADER = re.compile(r"^\+\+\+(?:\s+(.*?))?\s*$")
CELL_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
NAME = re.compile(r"^[A-Za-z0-9_.-]+$")
KEYS = {"id", "part", "lang", "exercise", "check", "tags", "alt", "docs", "text_lang", "audit", "audit_again", "needs",
        "measures"}
# Keys only the site reads (celerylab.sitegen): "alt" {"pt", "en"} describes the plots a code cell draws,
# "docs" links the official Celery documentation, "text_lang" marks a passage written in the other language.
DOCS_URL = re.compile(r"^https://\S+$")
# "audit" / "audit_again": the `celerylab audit` rule ids the cell's section teaches, or shows again (a list).
RULE_ID = re.compile(r"^CL[0-9]{3}$")
# "needs": what a code cell needs from the machine (celerylab.machine_needs names): without it, the suite skips the cell.
# "measures": false on a code cell with "needs" that measures nothing (starts or stops a node, prints a summary):
# in a lesson with experiments, every other such cell must be an experiment cell (`celerylab dev check`).


def parse_file(path: Path) -> list[SourceCell]:
    return parse(path.read_text(encoding="utf-8"), path)


def declared_needs(path: Path) -> tuple[str, ...]:
    """What the lesson source at `path` needs from the machine (its cells' `needs`), in the order first declared."""
    return tuple(dict.fromkeys(need for cell in parse_file(path) for need in cell.needs))


def parse(text: str, path: object = "lesson.md") -> list[SourceCell]:
    """Every cell of the source, in order; raises SourceError (with a line number) on the first problem."""
    cells: list[SourceCell] = []
    seen: dict[str, int] = {}
    for line, header, body in _chunks(text, path):
        meta = _metadata(header, line, path)
        if meta["id"] in seen:
            raise SourceError(path, line, "build.err.duplicate_id", id=meta["id"], first=seen[meta["id"]])
        seen[meta["id"]] = line
        cells.append(_cell(meta, line, body, path))
    if not cells:
        raise SourceError(path, 1, "build.err.no_cells")
    return cells


def _chunks(text: str, path: object):
    header: tuple[int, str] | None = None
    body: blocks.Lines = []
    for lineno, content in enumerate(text.splitlines(), start=1):
        match = HEADER.match(content)
        if match:
            if header:
                yield header[0], header[1], body
            header, body = (lineno, match.group(1) or ""), []
        elif header:
            body.append((lineno, content))
        elif content.strip():
            raise SourceError(path, lineno, "build.err.before_first_cell")
    if header:
        yield header[0], header[1], body


def _metadata(header: str, line: int, path: object) -> dict:
    try:
        meta = json.loads(header) if header else {}
    except json.JSONDecodeError as error:
        raise SourceError(path, line, "build.err.bad_json", error=error.msg) from None
    if not isinstance(meta, dict):
        raise SourceError(path, line, "build.err.bad_json", error="not an object")
    unknown = sorted(set(meta) - KEYS)
    if unknown:
        raise SourceError(path, line, "build.err.unknown_key", keys=", ".join(unknown), known=", ".join(sorted(KEYS)))
    if not isinstance(meta.get("id"), str) or not CELL_ID.match(meta["id"]):
        raise SourceError(path, line, "build.err.bad_id", id=meta.get("id"))
    for key, allowed in (("part", PARTS), ("lang", LANGS)):
        if key in meta and meta[key] not in allowed:
            raise SourceError(path, line, "build.err.bad_value", field=key, value=meta[key], allowed=", ".join(allowed))
    for key in ("exercise", "check"):
        if key in meta and not (isinstance(meta[key], str) and NAME.match(meta[key])):
            raise SourceError(path, line, "build.err.bad_name", field=key, value=meta[key])
    if "exercise" in meta and "check" in meta:
        raise SourceError(path, line, "build.err.exercise_and_check")
    _site_keys(meta, line, path)
    for key in ("audit", "audit_again"):
        if key in meta and not (isinstance(meta[key], list) and meta[key]
                                and all(isinstance(rule, str) and RULE_ID.match(rule) for rule in meta[key])):
            raise SourceError(path, line, "build.err.bad_value", field=key, value=meta[key], allowed='["CL301", …]')
    if "needs" in meta and not (isinstance(meta["needs"], list) and meta["needs"]
                                and all(need in machine_needs.CHECKS for need in meta["needs"])):
        raise SourceError(path, line, "build.err.bad_value", field="needs", value=meta["needs"],
                          allowed=", ".join(machine_needs.CHECKS))
    if "measures" in meta and meta["measures"] is not False:
        raise SourceError(path, line, "build.err.bad_value", field="measures", value=meta["measures"], allowed="false")
    tags = meta.get("tags", [])
    if not (isinstance(tags, list) and all(isinstance(tag, str) for tag in tags)):
        raise SourceError(path, line, "build.err.bad_tags")
    return meta


def _site_keys(meta: dict, line: int, path: object) -> None:
    alt = meta.get("alt")
    if "alt" in meta and not (isinstance(alt, dict) and set(alt) == set(LANGS)
                              and all(isinstance(text, str) and text.strip() for text in alt.values())):
        raise SourceError(path, line, "build.err.bad_value", field="alt", value=alt, allowed='{"pt": "…", "en": "…"}')
    if "docs" in meta and not (isinstance(meta["docs"], str) and DOCS_URL.match(meta["docs"])):
        raise SourceError(path, line, "build.err.bad_value", field="docs", value=meta["docs"],
                          allowed="https://docs.celeryq.dev/…")
    if "text_lang" in meta and meta["text_lang"] not in LANGS:
        raise SourceError(path, line, "build.err.bad_value", field="text_lang", value=meta["text_lang"],
                          allowed=", ".join(LANGS))


def _cell(meta: dict, line: int, body: blocks.Lines, path: object) -> SourceCell:
    langs = (meta["lang"],) if "lang" in meta else LANGS
    found = blocks.split_blocks(body, path, LANGS)
    if "lang" in meta and set(found) - {None, meta["lang"]}:
        raise SourceError(path, line, "build.err.other_lang_block", language=meta["lang"])
    bare = None in found
    if bare:
        found = {lang: found[None] for lang in langs}
    missing = [lang for lang in langs if lang not in found]
    if missing:
        raise SourceError(path, line, "build.err.missing_lang", langs=", ".join(missing))
    if not all(found[lang] for lang in langs):
        raise SourceError(path, line, "build.err.empty_cell")
    codes = {lang: blocks.fenced_code(found[lang]) for lang in langs}
    kinds = {lang: "markdown" if code is None else "code" for lang, code in codes.items()}
    if len(set(kinds.values())) > 1:
        raise SourceError(path, line, "build.err.kinds_differ")
    kind = kinds[langs[0]]
    if kind == "markdown" and bare and "lang" not in meta:
        raise SourceError(path, line, "build.err.missing_lang", langs=", ".join(LANGS))
    lines = {lang: (codes[lang] if kind == "code" else found[lang]) for lang in langs}
    if "exercise" in meta and kind != "code":
        raise SourceError(path, line, "build.err.exercise_not_code")
    for lang in langs:
        markers.validate(lines[lang], "exercise" in meta, path)
    texts = {lang: "\n".join(text for _, text in lines[lang]) for lang in langs}
    if kind == "code" and len({tuple(blocks.without_comments(code)) for code in texts.values()}) > 1:
        raise SourceError(path, line, "build.err.code_differs")
    return SourceCell(id=meta["id"], line=line, kind=kind, texts=texts, part=meta.get("part", "lesson"),
                      lang=meta.get("lang"), exercise=meta.get("exercise"), check=meta.get("check"),
                      tags=list(meta.get("tags", [])),
                      site={key: meta[key] for key in ("alt", "docs", "text_lang") if key in meta},
                      audit=tuple(meta.get("audit", ())), audit_again=tuple(meta.get("audit_again", ())),
                      needs=tuple(meta.get("needs", ())), measures=meta.get("measures", True))
