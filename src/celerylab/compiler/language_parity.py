"""What an English notebook must share with its Portuguese twin, checked without running it.

The suite executes the Portuguese notebooks under nbval; the English ones are built from the same
lesson source (the parser refuses code that differs) and are fresh when their digest matches. What is
left to prove of an English notebook is checked here, in seconds: the same code cells (comments
aside), outputs of the same kinds (an error where the Portuguese run has none shows), and no message
rendered in the other language.
"""
from __future__ import annotations

import io
import re
import tokenize
from functools import lru_cache

from celerylab.i18n import LANGS, catalog

FIELD = re.compile(r"\{[^{}]*\}")
EDGE = " \n\t:—–-•✔✘❌✅➡→.,;()[]'\""
MIN_FRAGMENT = 12  # characters of a message's fixed text long enough to say which language printed it


def code_tokens(source: str) -> list[tuple[int, str]]:
    """The cell's Python tokens without comments and layout: what runs, whatever language its comments are in.

    IPython magics (``%%writefile``, ``!cmd``) are not Python: such a cell is compared line by line."""
    skipped = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
               tokenize.ENDMARKER}
    try:
        return [(token.type, token.string) for token in tokenize.generate_tokens(io.StringIO(source).readline)
                if token.type not in skipped]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return [(0, line.strip()) for line in source.splitlines() if line.strip()]


def shape(cell) -> list[tuple]:
    """Each output's kind: its type, its stream's name, the MIME types it carries (a stream printed in
    several chunks is one output: how the kernel splits it is timing)."""
    kinds: list[tuple] = []
    for output in cell.get("outputs", []):
        kind = (output.get("output_type"), output.get("name"), tuple(sorted(output.get("data", {}))))
        if not (kinds and kind[0] == "stream" and kinds[-1] == kind):
            kinds.append(kind)
    return kinds


def output_text(cell) -> str:
    """Everything a reader sees printed by the cell: streams, plain text and HTML."""
    parts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            parts.append(output.get("text", ""))
        for mime in ("text/plain", "text/html", "text/markdown"):
            value = output.get("data", {}).get(mime, "")
            parts.append(value if isinstance(value, str) else "".join(value))
    return "".join(parts)


@lru_cache(maxsize=1)
def fragments() -> dict[str, frozenset[str]]:
    """Per language, the fixed pieces of its messages that no message of the other language contains."""
    messages = [texts for texts in catalog().values() if isinstance(texts, dict)]
    whole = {lang: "\n".join(str(texts.get(lang, "")) for texts in messages) for lang in LANGS}
    found: dict[str, set[str]] = {lang: set() for lang in LANGS}
    for texts in messages:
        if texts.get("pt") == texts.get("en"):
            continue
        for lang in LANGS:
            for piece in FIELD.split(str(texts.get(lang, ""))):
                piece = piece.strip(EDGE)
                if len(piece) >= MIN_FRAGMENT and " " in piece:
                    found[lang].add(piece)
    return {lang: frozenset(piece for piece in pieces
                            if all(piece not in whole[other] for other in LANGS if other != lang))
            for lang, pieces in found.items()}


def foreign_text(text: str, lang: str) -> list[str]:
    """The other languages' message pieces found in `text`, printed by a notebook in `lang`."""
    return sorted(piece for other in LANGS if other != lang for piece in fragments()[other] if piece in text)


def code_cells(notebook) -> dict[str, dict]:
    """The notebook's code cells by id, but the language cell (``lang-pt``/``lang-en``), which differs by design."""
    return {cell.get("id"): cell for cell in notebook.cells
            if cell.get("cell_type") == "code" and "lang" not in cell.get("metadata", {}).get("celerylab", {})}


def differences(source, translated, lang: str) -> list[str]:
    """What keeps `translated` (a notebook in `lang`) from proving what `source`'s live run proves."""
    found: list[str] = []
    ours, theirs = code_cells(source), code_cells(translated)
    if list(ours) != list(theirs):
        found.append(f"code cells differ: {list(ours)} != {list(theirs)}")
    for cell_id in ours.keys() & theirs.keys():
        mine, other = ours[cell_id], theirs[cell_id]
        if code_tokens(mine.get("source", "")) != code_tokens(other.get("source", "")):
            found.append(f"{cell_id}: the code differs (not only its comments)")
        if shape(mine) != shape(other):
            found.append(f"{cell_id}: outputs differ in kind: {shape(mine)} != {shape(other)}")
    return found + leaks(translated, lang)


def leaks(notebook, lang: str) -> list[str]:
    """The code cells of a notebook in `lang` whose outputs print a message in another language."""
    return [f"{cell_id}: printed in another language: {found[:3]}"
            for cell_id, cell in code_cells(notebook).items() if (found := foreign_text(output_text(cell), lang))]
